// What one loopback round trip costs on this machine, by transport, back to back and after the
// processes have been idle — the floor under every hop of the fleet (a call crosses several).
//
//   node bench/transport.mjs [--requests 1000] [--gaps 0,2,10]
//
// A child process serves, on free ports: a TCP echo (one byte), HTTP/1.1 on a keep-alive
// connection, plain HTTP/2 (Node's http2: one POST stream, a short body) and gRPC (@grpc/grpc-js,
// grpc.health.v1 Check), called once through a channel with libs/grpc's options and client
// interceptor as the fleet uses them and once with grpc-js's defaults. This process times each
// round trip, interleaved call by call, after sleeping `gap` ms before each (0: back to back). A
// service of the fleet answers a call after waiting for the previous one, so the gapped rows are
// the ones that match a request crossing the fleet; gRPC over plain HTTP/2 is grpc-js's own work
// per call (its call stack, filters and framing), which this machine runs slower after idling.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { createConnection, createServer as createTcpServer } from 'node:net';
import { Agent, request as httpRequest, createServer as createHttpServer } from 'node:http';
import { connect as connectHttp2, createServer as createHttp2Server } from 'node:http2';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { root, summarize } from './lib.mjs';

const require = createRequire(import.meta.url);
const requireFrom = (pkg) => createRequire(join(root, pkg, 'package.json'));
const { grpc, callUnary, clientOptions, insecure } = require(join(root, 'libs/grpc/dist/index.js'));
const protoLoader = requireFrom('libs/protos')('@grpc/proto-loader');
const { HealthImplementation, protoPath: healthProtoPath } = requireFrom('libs/grpc')('grpc-health-check');

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 1000);
const GAPS = String(args.gaps ?? '0,2,10').split(',').map(Number);
const WARMUP = 200;

/** The server side, in a process of its own. */
async function serve() {
  const listen = (server, ...rest) => new Promise((done) => server.listen(0, '127.0.0.1', ...rest, () => done(server.address().port)));
  const tcp = await listen(
    createTcpServer((socket) => {
      socket.setNoDelay(true);
      socket.on('data', (data) => socket.write(data));
    }),
  );
  const http1 = await listen(createHttpServer((req, res) => req.resume().on('end', () => res.end('ok'))));
  const http2Server = createHttp2Server();
  http2Server.on('stream', (stream) => {
    stream.resume();
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'application/octet-stream' });
      stream.end('ok');
    });
  });
  const http2 = await listen(http2Server);
  const server = new grpc.Server();
  new HealthImplementation({ '': 'SERVING' }).addToServer(server);
  const grpcPort = await new Promise((done, fail) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => (error ? fail(error) : done(port))));
  process.send({ tcp, http1, http2, grpc: grpcPort });
}

async function main() {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { stdio: 'inherit' });
  const ports = await new Promise((done) => child.once('message', done));
  try {
    const socket = createConnection({ host: '127.0.0.1', port: ports.tcp, noDelay: true });
    await new Promise((done) => socket.once('connect', done));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const session = connectHttp2(`http://127.0.0.1:${ports.http2}`);
    const health = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String }));
    const client = new health.grpc.health.v1.Health(`127.0.0.1:${ports.grpc}`, insecure(), clientOptions(5000));
    // The same call on a channel with grpc-js's defaults and no interceptor: what the fleet's options add.
    const plainClient = new health.grpc.health.v1.Health(`127.0.0.1:${ports.grpc}`, insecure());

    const transports = {
      'TCP echo (1 byte)': () => new Promise((done) => {
        socket.once('data', done);
        socket.write('x');
      }),
      'HTTP/1.1 GET (keep-alive)': () => new Promise((done, fail) => {
        httpRequest({ host: '127.0.0.1', port: ports.http1, agent }, (res) => res.resume().on('end', done)).on('error', fail).end();
      }),
      'HTTP/2 POST (node:http2)': () => new Promise((done, fail) => {
        const stream = session.request({ ':method': 'POST', ':path': '/call' });
        stream.on('error', fail);
        stream.resume();
        stream.on('end', done);
        stream.end('hello');
      }),
      // As the fleet's clients call: callUnary (its deadline, metrics and error mapping).
      'gRPC unary (libs/grpc client)': () => callUnary(client.Check, client, { service: '' }, { deadlineMs: 5000 }, 'internal_error'),
      'gRPC unary (grpc-js defaults)': () => new Promise((done, fail) => {
        plainClient.Check({ service: '' }, new grpc.Metadata(), { deadline: Date.now() + 5000 }, (error) => (error ? fail(error) : done()));
      }),
    };
    const names = Object.keys(transports);
    for (let i = 0; i < WARMUP; i += 1) for (const name of names) await transports[name]();

    const result = { bench: 'transport', requests: REQUESTS, gaps: {} };
    console.log(`transport: ${REQUESTS} round trips per transport and gap, interleaved, after ${WARMUP} warm-up\n`);
    console.log(`  ${'gap before each call'.padEnd(24)}${names.map((name) => name.padStart(34)).join('')}`);
    for (const gap of GAPS) {
      const samples = Object.fromEntries(names.map((name) => [name, []]));
      for (let i = 0; i < REQUESTS; i += 1) {
        // Rotate which transport goes first, so none always follows the same one.
        for (let j = 0; j < names.length; j += 1) {
          const name = names[(i + j) % names.length];
          if (gap > 0) await sleep(gap);
          const started = process.hrtime.bigint();
          await transports[name]();
          samples[name].push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }
      const stats = Object.fromEntries(names.map((name) => [name, summarize(samples[name])]));
      result.gaps[gap] = Object.fromEntries(names.map((name) => [name, { p50_ms: stats[name].p50, p99_ms: stats[name].p99 }]));
      const cell = (name) => `p50 ${stats[name].p50.toFixed(3)} / p99 ${stats[name].p99.toFixed(3)} ms`.padStart(34);
      console.log(`  ${`${gap} ms`.padEnd(24)}${names.map(cell).join('')}`);
    }
    console.log(JSON.stringify(result));
    socket.destroy();
    agent.destroy();
    session.close();
    client.close();
    plainClient.close();
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();

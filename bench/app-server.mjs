// One express route (a JSON body parsed and a JSON answer, the shape of a chat call) served three
// ways, each in a child process of its own under the same keep-alive load: Node's own server
// (`http.createServer(app)`: express re-parents each request and response with
// Object.setPrototypeOf), `createAppServer(app)` (`libs/lifecycle/src/app-server.ts`: requests and
// responses made with the app's prototypes, what the edge and vendor-sim serve), and a bare Node
// handler with the same body parser (the floor). Prints the server's CPU per request (process CPU
// time delta) for each, the kinds alternated round by round.
//
//   node bench/app-server.mjs [--requests 10000] [--warmup 5000] [--rounds 3]
import { fork } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { root } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const KINDS = ['node-server', 'app-server', 'bare-node'];

if (process.argv[2] === '--serve') {
  const require = createRequire(`${root}services/edge/package.json`);
  const express = require('express');
  const { createAppServer } = require(`${root}libs/lifecycle/dist/index.js`);
  const kind = process.argv[3];
  const answer = { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hello there' }, finish_reason: 'stop' }] };
  const json = express.json({ type: () => true, limit: 32_000_000 });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/v1/chat/completions', json, (req, res) => void res.setHeader('x-request-id', 'req_1').status(200).json({ ...answer, model: req.body.model }));
  const server =
    kind === 'app-server'
      ? createAppServer(app)
      : kind === 'node-server'
        ? http.createServer(app)
        : http.createServer((req, res) =>
            json(req, res, () => {
              const out = JSON.stringify({ ...answer, model: req.body.model });
              res.writeHead(200, { 'x-request-id': 'req_1', 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
              res.end(out);
            }),
          );
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('message', () => {
    const used = process.cpuUsage();
    process.send({ cpu_us: used.user + used.system });
  });
} else {
  const requests = Number(args.requests ?? 10_000);
  const warmup = Number(args.warmup ?? 5000);
  const rounds = Number(args.rounds ?? 3);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const payload = JSON.stringify({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'benchmark '.repeat(30) }] });
  const call = (port) =>
    new Promise((resolve, reject) => {
      const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/v1/chat/completions', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
        response.resume();
        response.on('end', resolve);
      });
      request.on('error', reject);
      request.end(payload);
    });
  const results = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 ? [...KINDS].reverse() : KINDS) {
      const child = fork(fileURLToPath(import.meta.url), ['--serve', kind]);
      const port = await new Promise((resolve) => child.once('message', resolve));
      const cpu = () => new Promise((resolve) => (child.once('message', (m) => resolve(m.cpu_us)), child.send('cpu')));
      const load = async (n) => {
        for (let sent = 0; sent < n; sent += 4) await Promise.all([call(port), call(port), call(port), call(port)]);
      };
      await load(warmup);
      const before = await cpu();
      await load(requests);
      results[kind].push(((await cpu()) - before) / requests);
      child.kill();
      agent.destroy();
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`server CPU per request, ${requests} requests after ${warmup} of warm-up, ${rounds} rounds (median; each round)`);
  for (const kind of KINDS) console.log(`  ${kind.padEnd(12)} ${median(results[kind]).toFixed(1).padStart(7)} µs   (${results[kind].map((v) => v.toFixed(1)).join(', ')})`);
  console.log(`  app-server / node-server: ${(median(results['app-server']) / median(results['node-server'])).toFixed(3)}`);
}

// Confirmed publishes to a quorum queue, `--concurrent` at a time (as many calls' usage records
// are answered in one event-loop turn under load), with the AMQP socket's writes coalesced per turn
// (`libs/amqp/src/coalesce.ts`, what every connection of the services does) and without (each frame
// its own `write`): wall time, this process's CPU, and the write syscalls when run under strace.
//
//   node bench/amqp-writes.mjs [--publishes 2000] [--concurrent 10] [--rounds 2]
//   strace -c -e trace=write,writev node bench/amqp-writes.mjs --modes on --rounds 1   (then --modes off)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { root } from './lib.mjs';

const require = createRequire(import.meta.url);
const { connectAmqp } = require(`${root}libs/amqp/dist/index.js`);
const { socketOf } = require(`${root}libs/amqp/dist/coalesce.js`);

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const publishes = Number(args.publishes ?? 2000);
const concurrent = Number(args.concurrent ?? 10);
const rounds = Number(args.rounds ?? 2);
const modes = (args.modes ?? 'on,off').split(',');
const vhost = `svc_bench_amqp_${process.pid}`;
execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });

async function run(mode) {
  const amqp = await connectAmqp(`amqp://guest:guest@127.0.0.1:5672/${vhost}`);
  // connectAmqp coalesces; "off" takes the socket's own write back.
  if (mode === 'off') delete socketOf(amqp.connection).write;
  const { channel } = amqp;
  await channel.assertQueue('bench.coalesce', { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  const body = Buffer.from(JSON.stringify({ call_id: 'call_0', cost_micros: 1234, input_tokens: 10, output_tokens: 20 }));
  const one = () => new Promise((resolve, reject) => channel.publish('', 'bench.coalesce', body, { persistent: true }, (error) => (error ? reject(error) : resolve())));
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let sent = 0; sent < publishes; sent += concurrent) await Promise.all(Array.from({ length: concurrent }, one));
  const used = process.cpuUsage(cpu);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  await channel.deleteQueue('bench.coalesce');
  await amqp.close();
  return { mode, wall_ms: wallMs, cpu_ms: (used.user + used.system) / 1000 };
}

try {
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      const result = await run(mode);
      console.log(`coalesced ${result.mode.padEnd(3)}  ${publishes} publishes, ${concurrent} at a time: ${result.wall_ms.toFixed(1)} ms, client CPU ${result.cpu_ms.toFixed(1)} ms`);
    }
  }
} finally {
  execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
}

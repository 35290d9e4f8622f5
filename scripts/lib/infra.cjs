// Reachability checks for Postgres, Redis and RabbitMQ with nothing but node:net, so they
// run before dependencies are installed. Each check speaks enough of the protocol to know
// the server is really there (not just an open port).
'use strict';
const { connect } = require('node:net');

function probe(host, port, hello, accept, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok, why) => {
      socket.destroy();
      resolve({ ok, why });
    };
    socket.setTimeout(timeoutMs, () => done(false, 'timed out'));
    socket.on('error', (error) => done(false, error.code ?? error.message));
    socket.on('connect', () => socket.write(hello));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const verdict = accept(received);
      if (verdict !== undefined) done(verdict, verdict ? '' : 'unexpected answer');
    });
  });
}

// Postgres SSLRequest: a server answers a single byte, 'S' or 'N'.
const pgHello = Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]);
// AMQP 0-9-1 protocol header: the server answers Connection.Start (a method frame, type 1).
const amqpHello = Buffer.from('AMQP\x00\x00\x09\x01', 'binary');

async function checkInfrastructure({ postgres, redis, amqp }) {
  const [pg, rd, mq] = await Promise.all([
    probe(postgres.host, postgres.port, pgHello, (data) => (data.length >= 1 ? data[0] === 0x53 || data[0] === 0x4e : undefined)),
    probe(redis.host, redis.port, 'PING\r\n', (data) => (data.includes('\r\n') ? data.toString().startsWith('+PONG') || data.toString().startsWith('-NOAUTH') : undefined)),
    probe(amqp.host, amqp.port, amqpHello, (data) => (data.length >= 1 ? data[0] === 1 : undefined)),
  ]);
  const problems = [];
  if (!pg.ok) problems.push({ name: 'PostgreSQL', where: `${postgres.host}:${postgres.port}`, why: pg.why, start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start' });
  if (!rd.ok) problems.push({ name: 'Redis', where: `${redis.host}:${redis.port}`, why: rd.why, start: 'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no' });
  if (!mq.ok) problems.push({ name: 'RabbitMQ', where: `${amqp.host}:${amqp.port}`, why: mq.why, start: 'rabbitmq-server -detached' });
  return problems;
}

function describeProblems(problems) {
  const lines = problems.map((p) => `  - ${p.name} is not reachable at ${p.where} (${p.why}). Start it with:\n      ${p.start}`);
  return `svc needs PostgreSQL, Redis and RabbitMQ running.\n${lines.join('\n')}\n  Where Docker is available instead: docker compose -f deploy/compose.yaml up -d`;
}

module.exports = { checkInfrastructure, describeProblems };

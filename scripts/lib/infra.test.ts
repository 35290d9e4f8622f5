import { createServer, type Server } from 'node:net';
const { checkInfrastructure, describeProblems } = require('./infra.cjs');

const closedPort = async (): Promise<number> => {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

describe('server checks before start', () => {
  it('names each unreachable server and how to start it', async () => {
    const port = await closedPort();
    const problems = await checkInfrastructure({ postgres: { host: '127.0.0.1', port }, redis: { host: '127.0.0.1', port }, amqp: { host: '127.0.0.1', port } });
    expect(problems.map((problem: { name: string }) => problem.name)).toEqual(['PostgreSQL', 'Redis', 'RabbitMQ']);
    const text = describeProblems(problems);
    expect(text).toContain('pg_ctlcluster --skip-systemctl-redirect');
    expect(text).toContain('redis-server --daemonize yes');
    expect(text).toContain('rabbitmq-server -detached');
    expect(text).toContain('deploy/compose.yaml');
  });

  it('does not take any open port for the server (it speaks enough of each protocol)', async () => {
    const impostor = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const port = (impostor.address() as { port: number }).port;
    const problems = await checkInfrastructure({ postgres: { host: '127.0.0.1', port }, redis: { host: '127.0.0.1', port: 6379 }, amqp: { host: '127.0.0.1', port } });
    impostor.close();
    expect(problems.map((problem: { name: string }) => problem.name)).toEqual(['PostgreSQL', 'RabbitMQ']);
  });
});

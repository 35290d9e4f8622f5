import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { postJson } from './http';

/**
 * The vendor HTTP client against a real local server (not nock: the point is the connection).
 * A keep-alive connection the server drops just as a request goes out on it is not the vendor
 * being unavailable: the request is sent again on a new connection.
 */

/** Every connection the test servers hold, ended after the tests (the client pool keeps them alive). */
const open = new Set<Socket>();

/** A minimal HTTP/1.1 server on a raw socket: answers each request unless `drop` says to reset the connection unread. */
function rawServer(drop: (requestOnConnection: number) => boolean): { server: Server; answered: () => number } {
  let answered = 0;
  const server = createServer((socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    let buffered = '';
    let requests = 0;
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        requests += 1;
        if (drop(requests)) {
          socket.resetAndDestroy();
          return;
        }
        answered += 1;
        const body = JSON.stringify({ n: answered });
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`);
      }
    });
    socket.on('error', () => undefined);
  });
  return { server, answered: () => answered };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

describe('postJson on a pooled keep-alive connection', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('sends the request again on a new connection when the reused one was reset before any answer', async () => {
    // The second request on a connection is reset unread, as by a server whose keep-alive timeout fired first.
    const { server, answered } = rawServer((requestOnConnection) => requestOnConnection === 2);
    servers.push(server);
    const url = await listen(server);
    expect(await (await postJson(url, { a: 1 }, {})).body.json()).toEqual({ n: 1 });
    expect(await (await postJson(url, { a: 2 }, {})).body.json()).toEqual({ n: 2 });
    expect(answered()).toBe(2);
  });

  it('a reset on a new connection is still the vendor being unreachable (no retry)', async () => {
    const { server, answered } = rawServer(() => true);
    servers.push(server);
    const url = await listen(server);
    await expect(postJson(url, {}, {})).rejects.toMatchObject({ kind: 'unavailable' });
    expect(answered()).toBe(0);
  });
});

import type { RequestListener, Server } from 'node:http';
import { createAppServer } from '@svc/lifecycle';
import type { AddressInfo } from 'node:net';

/** A handler tests serve on a loopback port of its own. */
export interface LocalServer {
  server: Server;
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** Drops open connections (keep-alive included) and closes the server. */
  close(): Promise<void>;
}

/** Served the way the edge serves its app (`createAppServer`: an express app's requests born with its prototypes). */
export async function listenLocal(handler: RequestListener): Promise<LocalServer> {
  const server = createAppServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { createServer, type RequestListener, type Server } from 'node:http';
import { createAppServer, type PrototypedApp } from '@svc/lifecycle';
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

const isApp = (handler: RequestListener): handler is PrototypedApp =>
  typeof (handler as Partial<PrototypedApp>).request === 'object' && typeof (handler as Partial<PrototypedApp>).response === 'object';

/** An express app is served the way the edge serves it (`createAppServer`); any other handler by Node's own server. */
export async function listenLocal(handler: RequestListener): Promise<LocalServer> {
  const server = isApp(handler) ? createAppServer(handler) : createServer(handler);
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

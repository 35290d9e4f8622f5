import { IncomingMessage, ServerResponse, createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

/** What express gives each request and response as its prototype (`app.request`, `app.response`). */
interface PrototypedApp extends RequestListener {
  request: object;
  response: object;
}

const prototyped = (handler: RequestListener): handler is PrototypedApp =>
  typeof (handler as Partial<PrototypedApp>).request === 'object' && typeof (handler as Partial<PrototypedApp>).response === 'object';

type Initializer = (this: object, ...args: unknown[]) => void;

/** Node's IncomingMessage and ServerResponse are plain constructor functions (not classes) that can initialize an object of a subtype. */
const callable = (constructor: unknown): constructor is Initializer =>
  typeof constructor === 'function' && !/^class[\s{]/.test(Function.prototype.toString.call(constructor));

/**
 * The HTTP server of an express app whose requests and responses are born with the app's
 * prototypes. Express re-parents every request and response on arrival
 * (`Object.setPrototypeOf(req, app.request)` in `app.handle`); V8 then gives each object a new
 * hidden class, and every property access on it — Node's HTTP and stream internals, express,
 * OpenTelemetry, the handlers — goes through slower, megamorphic lookups. Made with that prototype
 * from the start, the object keeps one shape and express's call changes nothing (V8 returns early
 * when the prototype is already the one asked for). One express route (`bench/app-server.mjs`):
 * 204 µs of server CPU per request → 112 µs, a bare Node handler 69 µs (ARCHITECTURE.md, "Request
 * objects born with express's prototypes").
 * Any other handler (no `request`/`response` prototypes), or a Node whose constructors are classes,
 * gets Node's own server: the same behaviour, without the gain.
 */
export function createAppServer(app: RequestListener, options: ServerOptions = {}): Server {
  if (!prototyped(app) || !callable(IncomingMessage) || !callable(ServerResponse)) return createServer(options, app);
  const initRequest = IncomingMessage;
  const initResponse = ServerResponse;
  function AppRequest(this: object, socket: Socket): void {
    initRequest.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: object, req: IncomingMessage, responseOptions?: unknown): void {
    initResponse.call(this, req, responseOptions);
  }
  AppResponse.prototype = app.response;
  return createServer(
    {
      ...options,
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}

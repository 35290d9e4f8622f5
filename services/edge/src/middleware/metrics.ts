import type { NextFunction, Request, Response } from 'express';
import { elapsedMs, setHttpRoute, svcMetrics } from '@svc/telemetry';

/**
 * The edge's public routes as metric labels, for requests refused before Express matched a
 * route (per-address limit, authentication, unknown paths). Matched requests use the route
 * that matched; both give the same label for the same endpoint.
 */
const PUBLIC_ROUTES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/v1\/chat\/completions\/?$/, '/v1/chat/completions'],
  [/^\/v1\/embeddings\/?$/, '/v1/embeddings'],
  [/^\/v1\/models\/?$/, '/v1/models'],
  [/^\/v1\/models\/.+/, '/v1/models/*id'],
  [/^\/v1\/public\/catalog-export\/?$/, '/v1/public/catalog-export'],
  [/^\/v1\/public\/auto-models\/?$/, '/v1/public/auto-models'],
];

/** Anything else (unknown paths, probes) shares one label, so raw URLs never become series. */
export const UNMATCHED_ROUTE = 'unmatched';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Status label of a response the client left before it ended, headers unsent (nginx's convention). */
export const CLIENT_CLOSED = '499';

export function routeLabel(path: string): string {
  for (const [pattern, label] of PUBLIC_ROUTES) if (pattern.test(path)) return label;
  return UNMATCHED_ROUTE;
}

/**
 * Remembers the matched route with the path it was mounted under. Express restores
 * req.baseUrl when an error leaves a router, so by the time the response ends the mount
 * ('/v1') is gone; it is read here, when the route is matched.
 */
function watchRoute(req: Request): () => string | undefined {
  let route: unknown = req.route;
  let label: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (typeof value?.path === 'string') {
        label = `${req.baseUrl ?? ''}${value.path}`;
        setHttpRoute(label);
      }
    },
  });
  return () => label;
}

/**
 * Request count, duration and errors of every request (svc.http.*), recorded once when the
 * response ends or the connection closes. The error code is the one the error handler sent
 * (res.locals.errorCode).
 */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const startedAt = performance.now();
  const matched = watchRoute(req);
  let recorded = false;
  const record = () => {
    if (recorded) return;
    recorded = true;
    const route = matched() ?? routeLabel((req.originalUrl ?? req.url).split('?')[0] ?? '');
    const status_code = res.writableFinished || res.headersSent ? String(res.statusCode) : CLIENT_CLOSED;
    const instruments = svcMetrics();
    instruments.requests.add(1, { route, method: METHODS.has(req.method) ? req.method : '_OTHER', status_code });
    instruments.requestDuration.record(elapsedMs(startedAt), { route, status_code });
    const code = res.locals.errorCode;
    if (typeof code === 'string') instruments.errors.add(1, { route, code });
  };
  res.once('finish', record);
  res.once('close', record);
  next();
}

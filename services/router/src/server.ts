import type { Logger } from '@svc/logger';
import type { Catalog } from '@svc/catalog';
import { unary, type ServiceRegistration } from '@svc/grpc';
import { loadRouterProto, type RouterServiceHandlers } from '@svc/protos';
import type { AsyncClassifier, Classifier } from './classifier';
import { createRouter } from './routing/route';
import { measureRoute } from './metrics';
import type { SessionStore } from './routing/sessions';

export interface RouterDeps {
  catalog: Catalog;
  logger: Logger;
  /** The trained classifier in process, or the LLM classifier (which falls back to it). */
  classifier: Classifier | AsyncClassifier;
  /** Session routing state (Redis in production). */
  sessions?: SessionStore;
  /** Clock in ms (tests move it). */
  now?: () => number;
  sessionTimeoutMs?: number;
  protosDir?: string;
}

export function routerService(deps: RouterDeps): ServiceRegistration {
  const proto = loadRouterProto(deps.protosDir);
  const router = createRouter(deps);
  const handlers: RouterServiceHandlers = {
    Route: unary(deps.logger, 'Route', (request) => measureRoute(() => router.route(request))),
  };
  return { definition: proto.RouterService.service, implementation: handlers as never, name: 'svc.router.v1.RouterService' };
}

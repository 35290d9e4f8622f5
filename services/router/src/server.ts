import type { Logger } from '@svc/logger';
import type { Catalog } from '@svc/catalog';
import { unary, type ServiceRegistration } from '@svc/grpc';
import { loadRouterProto, type RouterServiceHandlers } from '@svc/protos';
import { route } from './routing/route';

export interface RouterDeps {
  catalog: Catalog;
  logger: Logger;
  protosDir?: string;
}

export function routerService(deps: RouterDeps): ServiceRegistration {
  const proto = loadRouterProto(deps.protosDir);
  const handlers: RouterServiceHandlers = {
    Route: unary(deps.logger, 'Route', async (request) => route(deps.catalog, request)),
  };
  return { definition: proto.RouterService.service, implementation: handlers as never, name: 'svc.router.v1.RouterService' };
}

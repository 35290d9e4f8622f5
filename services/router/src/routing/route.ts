import type { Catalog } from '@svc/catalog';
import type { RouteRequest__Output as RouteRequest, RouteResponse } from '@svc/protos';
import { routeAuto } from './route-auto';
import { routeNamed } from './route-named';

/** A request names a catalog model or one of the four virtual ids; omitted means auto. */
export function route(catalog: Catalog, request: RouteRequest): RouteResponse {
  const model = request.model || 'auto';
  return catalog.isVirtual(model) ? routeAuto(catalog, { ...request, model }) : routeNamed(catalog, request);
}

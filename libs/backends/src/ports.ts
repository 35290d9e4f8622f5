import type { BillingPort, RouterPort } from '@svc/call';
import type { Backends } from './clients';

/** The call pipeline's router port over the router's gRPC client. */
export function routerPort(backends: Pick<Backends, 'route'>): RouterPort {
  return { route: (query) => backends.route(query) };
}

/** The call pipeline's billing port over billing's gRPC client. */
export function billingPort(backends: Pick<Backends, 'admit' | 'release'>): BillingPort {
  return {
    admit: (query) => backends.admit(query),
    release: async (callId, organizationId) => void (await backends.release({ call_id: callId, organization_id: organizationId })),
  };
}

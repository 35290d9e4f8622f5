import { grpc, callUnary, clientOptions, grpcTarget, insecure } from '@svc/grpc';
import { loadBillingProto, loadRouterProto, type AdmitRequest, type AdmitResponse__Output, type AuthenticateKeyResponse__Output, type BillingServiceClient, type RouteRequest, type RouteResponse__Output, type RouterServiceClient, type SettleRequest, type SettleResponse__Output, type ReleaseRequest, type ReleaseResponse__Output, type VendorKeysResponse__Output } from '@svc/protos';

/** The edge's view of its gRPC peers, as promises with deadlines and spec errors. */
export interface Backends {
  authenticateKey(keyHash: string): Promise<AuthenticateKeyResponse__Output>;
  admit(request: AdmitRequest): Promise<AdmitResponse__Output>;
  settle(request: SettleRequest): Promise<number>;
  release(request: ReleaseRequest): Promise<ReleaseResponse__Output>;
  vendorKeys(organizationId: string): Promise<Record<string, string>>;
  route(request: RouteRequest): Promise<RouteResponse__Output>;
  close(): void;
}

export function createBackends(options: { routerAddr: string; billingAddr: string; deadlineMs: number; protosDir?: string }): Backends {
  const billingProto = loadBillingProto(options.protosDir);
  const routerProto = loadRouterProto(options.protosDir);
  const channelOptions = clientOptions(options.deadlineMs);
  const billing = new billingProto.BillingService(grpcTarget(options.billingAddr), insecure(), channelOptions) as unknown as BillingServiceClient;
  const router = new routerProto.RouterService(grpcTarget(options.routerAddr), insecure(), channelOptions) as unknown as RouterServiceClient;
  const deadline = { deadlineMs: options.deadlineMs };
  return {
    authenticateKey: (keyHash) => callUnary(billing.AuthenticateKey, billing, { key_hash: keyHash }, deadline, 'auth_unavailable'),
    admit: (request) => callUnary(billing.Admit, billing, request, deadline, 'billing_unavailable'),
    settle: async (request) => (await callUnary<SettleRequest, SettleResponse__Output>(billing.Settle, billing, request, { deadlineMs: 10_000 }, 'billing_unavailable')).written,
    release: (request) => callUnary(billing.Release, billing, request, deadline, 'billing_unavailable'),
    vendorKeys: async (organizationId) => (await callUnary<{ organization_id: string }, VendorKeysResponse__Output>(billing.VendorKeys, billing, { organization_id: organizationId }, deadline, 'billing_unavailable')).keys ?? {},
    route: (request) => callUnary(router.Route, router, request, deadline, 'no_provider_available'),
    close: () => {
      (billing as unknown as grpc.Client).close();
      (router as unknown as grpc.Client).close();
    },
  };
}

/** The edge's gRPC peers (libs/backends, shared with the workers). */
export { createBackends, type Backends } from '@svc/backends';

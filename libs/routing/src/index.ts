/**
 * Routing rules that are pure functions of the catalog and a key's model access: named models
 * and their fallback sets, eligibility. The router serves them over gRPC; the edge runs the
 * named-model rule in-process, saving a round trip on the hot path.
 */
export * from './types';
export * from './model-access';
export * from './eligibility';
export * from './route-named';

export * from './migrate';
export * from './shared-pool';

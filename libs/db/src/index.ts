export * from './migrate';
export * from './shared-pool';
export * from './outage';

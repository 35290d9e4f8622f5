/** Split-and-route (`distill`): the gate and prices, the steps, svc.split. */
export * from './gate';
export * from './prompts';
export * from './run-split';
export * from './outcome';

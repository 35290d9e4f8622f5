/** The decision model (svc.decision) and jev, the auto path that uses it. */
export * from './questions';
export * from './answer';
export * from './jev';

/** The queue message schemas: the contract between publishers and consumers (noun.verb names). */
export * from './usage';
export * from './usage-outbox';
export * from './conversation-compact';
export * from './response-run';
export * from './batch';

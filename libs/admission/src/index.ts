export * from './admit';
export * from './keys';
export * from './periods';
export * from './release';
export * from './scripts';

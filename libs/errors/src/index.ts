export * from './table';
export * from './service-error';
export * from './grpc';
export { formatDuration, retryAfterSeconds } from './durations';

/** The usage sink the edge publishes answered calls through (libs/backends, shared with the workers). */
export { createUsageSink, type UsageRecordInput, type UsageSink } from '@svc/backends';

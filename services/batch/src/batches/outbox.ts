/** billing.usage_outbox: where a committed line's usage record goes, in the line's own transaction. */
export { USAGE_OUTBOX_TABLE } from '@svc/messages';

import { ServiceError } from '@svc/errors';
import { parseMetadata } from '@svc/call';
import { tokensOf } from './items';
import type { ThreadTotals } from './history';

/** The conversation object (spec: Conversation object). */
export interface ConversationObject {
  id: string;
  object: 'conversation';
  created_at: number;
  metadata: Record<string, string>;
  svc: {
    entries: number;
    token_estimate: number;
    expires_at: string;
    last_turn_at: string;
    retention_days?: number;
  };
}

export interface ConversationRow {
  id: string;
  metadata: unknown;
  retentionDays: number | null;
  expiresAt: Date;
  lastTurnAt: Date;
  createdAt: Date;
}

export const RETENTION_MAX_DAYS = 365;
const DAY_MS = 86_400_000;

/** RFC 3339 in UTC, whole seconds: 2025-01-31T12:00:00Z. */
export function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** Every stored item of the conversation, all threads (svc.entries, svc.token_estimate). */
export function renderConversation(row: ConversationRow, stored: ThreadTotals): ConversationObject {
  const svc: ConversationObject['svc'] = {
    entries: stored.entries,
    token_estimate: tokensOf(stored.characters),
    expires_at: rfc3339(row.expiresAt),
    last_turn_at: rfc3339(row.lastTurnAt),
  };
  if (row.retentionDays !== null) svc.retention_days = row.retentionDays;
  return {
    id: row.id,
    object: 'conversation',
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    metadata: (row.metadata ?? {}) as Record<string, string>,
    svc,
  };
}

/** Conversation metadata: the Responses metadata rules (libs/call parseMetadata); absent or null is {}. */
export function validateMetadata(value: unknown, param = 'metadata'): Record<string, string> {
  return parseMetadata(value, param);
}

/** retention_days: an integer 0 to 365. */
export function validateRetentionDays(value: number, param = 'svc.retention_days'): number {
  if (!Number.isInteger(value) || value < 0 || value > RETENTION_MAX_DAYS) {
    throw new ServiceError('invalid_value', `Invalid '${param}': expected an integer from 0 to ${RETENTION_MAX_DAYS}.`, { param });
  }
  return value;
}

/** The organization's retention as the caller sent it (a programming error when out of range). */
export function organizationRetention(value: number): number {
  return validateRetentionDays(value, 'organization_retention_days');
}

/** The retention clock: deletion time after a turn at `now`. Retention 0 expires at once. */
export function expiresAtFor(now: Date, days: number): Date {
  return new Date(now.getTime() + days * DAY_MS);
}

import { isId } from '@svc/ids';
import { getView } from '../domain/response-object';
import { clock, requireOrganization, responseNotFound, type StoreDeps } from './queries';
import { readResponse } from './sql';

/** GET and DELETE /v1/responses/{id}. */

export interface StoredResponse {
  /** As GET /v1/responses/{id} shows it. */
  response: Record<string, unknown>;
  /** Exactly as stored. */
  stored: Record<string, unknown>;
  stream: unknown;
  conversation_id: string;
  parent_response_id: string;
  status: string;
  background: boolean;
}

/** The organization's stored response; unknown, malformed, deleted and expired ids are not found. */
export async function getResponse(deps: StoreDeps, organizationId: string, responseId: string): Promise<StoredResponse> {
  requireOrganization(organizationId);
  if (!isId('resp', responseId)) throw responseNotFound(responseId);
  const row = await readResponse(deps, organizationId, responseId, clock(deps));
  if (!row) throw responseNotFound(responseId);
  return {
    response: getView(row.body),
    stored: row.body,
    stream: row.stream,
    conversation_id: row.conversation_id,
    parent_response_id: row.parent_response_id ?? '',
    status: row.status,
    background: row.background,
  };
}

/**
 * Deletes the response's turn and everything stored after it on its threads: the response, every
 * response descending from it (the branches continuing from it), and their items (input, output,
 * added after them, compactions made for them). Runs with the conversation row locked, so no turn
 * completes onto a response being deleted.
 */
export async function deleteResponse(deps: StoreDeps, organizationId: string, responseId: string): Promise<{ id: string; deleted: true; responses_deleted: number; conversation_id: string }> {
  requireOrganization(organizationId);
  if (!isId('resp', responseId)) throw responseNotFound(responseId);
  const now = clock(deps);
  return deps.prisma.$transaction(async (tx) => {
    const found = await tx.$queryRaw<Array<{ conversation_id: string }>>`
      SELECT c.id AS conversation_id
        FROM conversations.response r JOIN conversations.conversation c ON c.id = r.conversation_id
       WHERE r.id = ${responseId} AND r.organization_id = ${organizationId} AND c.organization_id = ${organizationId} AND c.expires_at > ${now}
         FOR UPDATE OF c`;
    if (found.length === 0) throw responseNotFound(responseId);
    const deleted = await tx.$executeRaw`
      WITH RECURSIVE doomed AS (
        SELECT id FROM conversations.response WHERE id = ${responseId} AND conversation_id = ${found[0]!.conversation_id}
        UNION
        SELECT r.id FROM conversations.response r JOIN doomed d ON r.parent_response_id = d.id
      )
      DELETE FROM conversations.response WHERE id IN (SELECT id FROM doomed)`;
    await deps.beforeCommit?.('DeleteResponse');
    return { id: responseId, deleted: true as const, responses_deleted: deleted, conversation_id: found[0]!.conversation_id };
  });
}

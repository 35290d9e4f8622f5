import { outputItems, responseObject, type OutputItem, type ResponseHead } from '../render/responses';
import type { UnaryCallResult } from '../run-chat-call';

/**
 * A Responses turn's ended object, rendered the same way wherever the turn ran: on the edge (a
 * turn answered while the client waits) or on the workers (a background turn, response.run).
 */
export interface TurnContext {
  /** The conversation the turn belongs to (its id is the call's session id). */
  conversationId?: string;
  /** Stored history was summarized before this turn. */
  compacted: boolean;
}

/** The output cap was hit: status `incomplete`, incomplete_details.reason `max_output_tokens`. */
export function isIncomplete(finishReason: string): boolean {
  return finishReason === 'length';
}

/** The svc object of a turn: the call's, with the conversation as the session, and compacted when it was. */
export function turnSvc(svc: Record<string, unknown>, turn: TurnContext): Record<string, unknown> {
  return { ...svc, ...(turn.conversationId ? { session_id: turn.conversationId } : {}), ...(turn.compacted ? { compacted: true } : {}) };
}

/** The response object of a unary turn's answer (completed, or incomplete at the output cap) and its output items. */
export function answeredTurn(head: ResponseHead, outcome: UnaryCallResult, turn: TurnContext): { response: Record<string, unknown>; output: OutputItem[] } {
  const incomplete = isIncomplete(outcome.result.finishReason);
  const output = outputItems(head.id, outcome.result, incomplete);
  const response = responseObject({ ...head, model: outcome.served.model }, { status: incomplete ? 'incomplete' : 'completed', output, usage: outcome.result.usage, svc: turnSvc(outcome.svc, turn) });
  return { response, output };
}

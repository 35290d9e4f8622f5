import { outputItems, responseObject, servedHead, type OutputItem, type ResponseHead } from '../render/responses';
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
  /** What that summary was billed (its own call): the turn's svc reports it in cost_micros and cost. */
  compactionCost?: SummaryCost;
}

/** The money fields of a compaction summary's bill (libs/messages CompactionCost has this shape). */
export interface SummaryCost {
  cost_micros: number;
  vendor_micros: number;
  service_fee_micros: number;
  direct_micros: number;
}

/** The output cap was hit: status `incomplete`, incomplete_details.reason `max_output_tokens`. */
export function isIncomplete(finishReason: string): boolean {
  return finishReason === 'length';
}

/** The svc object of a turn: the call's, with the conversation as the session, and compacted when it was. */
export function turnSvc(svc: Record<string, unknown>, turn: TurnContext): Record<string, unknown> {
  const merged = { ...svc, ...(turn.conversationId ? { session_id: turn.conversationId } : {}), ...(turn.compacted ? { compacted: true } : {}) };
  return turn.compactionCost ? withCompactionCost(merged, turn.compactionCost) : merged;
}

/**
 * svc.cost_micros is the amount billed for the turn: a summary written for it (on the service's
 * own key, billed to the organization as its own call) is added to cost_micros and to the cost
 * object's vendor, service-fee and direct amounts; saved_micros stays direct − cost.
 */
function withCompactionCost(svc: Record<string, unknown>, extra: SummaryCost): Record<string, unknown> {
  const add = (value: unknown, more: number) => (typeof value === 'number' ? value : 0) + more;
  const out: Record<string, unknown> = { ...svc, cost_micros: add(svc.cost_micros, extra.cost_micros) };
  if (svc.cost && typeof svc.cost === 'object') {
    const cost = { ...(svc.cost as Record<string, unknown>) };
    cost.vendor_micros = add(cost.vendor_micros, extra.vendor_micros);
    cost.service_fee_micros = add(cost.service_fee_micros, extra.service_fee_micros);
    cost.direct_micros = add(cost.direct_micros, extra.direct_micros);
    if (typeof cost.saved_micros === 'number') cost.saved_micros = (cost.direct_micros as number) - (out.cost_micros as number);
    out.cost = cost;
  }
  return out;
}

/** The response object of a unary turn's answer (completed, or incomplete at the output cap) and its output items. */
export function answeredTurn(head: ResponseHead, outcome: UnaryCallResult, turn: TurnContext): { response: Record<string, unknown>; output: OutputItem[] } {
  const incomplete = isIncomplete(outcome.result.finishReason);
  const output = outputItems(head.id, outcome.result, incomplete);
  const response = responseObject(servedHead(head, outcome.served), { status: incomplete ? 'incomplete' : 'completed', output, usage: outcome.result.usage, svc: turnSvc(outcome.svc, turn) });
  return { response, output };
}

import type { FinishReason } from '../types';

/** Anthropic stop_reason to the common finish_reason; the raw value is kept as vendor_stop_reason. */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    // Spec, Errors: "content a vendor refuses to produce returns a normal response with
    // finish_reason content_filter".
    case 'refusal':
      return 'content_filter';
    // end_turn, stop_sequence, pause_turn and any later value.
    default:
      return 'stop';
  }
}

import type { Catalog, ChatModel } from '@svc/catalog';
import { listPricePico, percentOfPicoToMicros, roundPicoToMicros } from '@svc/pricing';
import type { Usage } from '@svc/vendors';
import { baselineMicros, type CostFields } from '../billing';
import type { SplitGate } from './gate';
import { stepOf, type SplitRun, type SplitStep } from './run-split';

/** What the call knows of its split: the gate, and the steps once they ran. */
export interface SplitState {
  gate: SplitGate;
  run?: SplitRun;
}

/**
 * svc.cost of an applied split (spec: "svc.cost covers the whole request"): the answer's cost
 * (costFields, with the auto fee once) plus each billed step before it (the extract) at its list
 * price with the plan's fee. direct_micros is the whole request — every input token the client
 * sent and the answer's output — on the key's baseline model; while the baseline is pending the
 * call is its own baseline.
 */
export function splitCost(catalog: Catalog, answer: CostFields, run: SplitRun, options: { feePercent: number; free: boolean; wholeInputTokens: number; answerUsage: Usage; baseline?: ChatModel }): CostFields {
  const breakdown = { ...answer.breakdown };
  for (const step of run.billed) {
    const pico = listPricePico(step.model.pricing, { inputTokens: step.usage.inputTokens, outputTokens: step.usage.outputTokens, cachedTokens: step.usage.cachedTokens, cacheWriteTokens: step.usage.cacheWriteTokens });
    const list = roundPicoToMicros(pico);
    breakdown.list_micros += list;
    if (step.byok || options.free) continue;
    const fee = percentOfPicoToMicros(pico, options.feePercent);
    breakdown.vendor_micros += list;
    breakdown.service_fee_micros += fee;
    breakdown.cost_micros += list + fee;
  }
  const object: Record<string, unknown> = { ...answer.object, vendor_micros: breakdown.vendor_micros, service_fee_micros: breakdown.service_fee_micros, call_fee_micros: breakdown.call_fee_micros };
  if (answer.baselinePending || !options.baseline) {
    object.direct_micros = breakdown.cost_micros;
    return { breakdown, object, directMicros: breakdown.cost_micros, baselinePending: answer.baselinePending };
  }
  const direct = baselineMicros(catalog, options.baseline, { inputTokens: options.wholeInputTokens, outputTokens: options.answerUsage.outputTokens, cachedTokens: 0, cacheWriteTokens: 0 });
  Object.assign(object, { direct_micros: direct, saved_micros: direct - breakdown.cost_micros });
  return { breakdown, object, directMicros: direct, baselinePending: false };
}

/** svc.split saved_micros: the whole request on the answer's model, less every split call, list price. */
export function splitSavedMicros(answerModel: ChatModel, wholeInputTokens: number, answerUsage: Usage, steps: readonly SplitStep[]): number {
  const whole = roundPicoToMicros(listPricePico(answerModel.pricing, { inputTokens: wholeInputTokens, outputTokens: answerUsage.outputTokens, cachedTokens: 0, cacheWriteTokens: 0 }));
  return whole - steps.reduce((sum, step) => sum + step.micros, 0);
}

/**
 * svc.split (spec: svc.split fields): applied, pattern `distill` once the split ran, reason (empty
 * on a split and on a fallback), estimate once the gate passed, steps, excerpt, check_p, fallback,
 * and saved_micros on a held split while the baseline is pending.
 */
export function splitObject(state: SplitState, answer?: { model: ChatModel; usage: Usage; wholeInputTokens: number; baselinePending: boolean }): Record<string, unknown> {
  const { gate, run } = state;
  const object: Record<string, unknown> = { applied: Boolean(run?.applied) };
  if (run && (run.applied || run.fallback)) object.pattern = 'distill';
  const reason = run ? run.reason : gate.reason;
  if (reason) object.reason = reason;
  if (gate.estimate) object.estimate = { ...gate.estimate };
  const steps = run ? [...run.steps] : [];
  if (run?.applied && answer) steps.push(stepOf('answer', answer.model, answer.usage, true));
  if (steps.length > 0) object.steps = steps;
  if (run?.excerpt) object.excerpt = run.excerpt;
  if (run?.check_p !== undefined) object.check_p = run.check_p;
  if (run?.fallback) object.fallback = run.fallback;
  if (run?.applied && answer && answer.baselinePending) object.saved_micros = splitSavedMicros(answer.model, answer.wholeInputTokens, answer.usage, steps);
  return object;
}

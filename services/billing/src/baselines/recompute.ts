import type { Price } from '@svc/catalog';
import { picoPerToken } from '@svc/pricing';
import type { Prisma } from '../db';

/**
 * Baseline rules (spec, svc.cost fields): a key's baseline model is the model it used at the
 * 95th percentile of list price per token over the last 30 days, recomputed nightly; it
 * applies once the key has 20 successful calls in that window.
 *
 * - Calls: ledger rows of kind 'chat' (the ledger holds successful calls only) with
 *   occurred_at in (now - 30 days, now].
 * - List price per token of a model: its blended catalog price, (input + output) / 2 USD per
 *   million tokens, held as integer pico-USD per token: (pico(input) + pico(output)) / 2,
 *   rounded half up. Cache and batch rates are not part of it.
 * - Percentile: nearest rank over the calls ordered by that price, ties by model id: rank
 *   ceil(0.95 * n) (1-based); the baseline model is the model of the call at that rank.
 * - Calls on a model the catalog no longer lists have no list price: they are left out of
 *   both the percentile and `calls`. A key with no priced call gets no row.
 * - Every key with at least one priced call gets a row, also under 20 calls (`calls` says how
 *   many; the reader decides whether the baseline applies yet, BASELINE_CALLS_NEEDED).
 * - Rows of keys without priced calls in the window are deleted: the table is the last run.
 */
export const BASELINE_WINDOW_DAYS = 30;
export const BASELINE_PERCENTILE = 95;
export { BASELINE_CALLS_NEEDED } from '@svc/catalog';

const WRITE_BATCH = 1000;
const DAY_MS = 86_400_000;

/** What the recompute needs from the catalog (the Catalog of @svc/catalog satisfies it). */
export interface PriceLookup {
  chatModel(id: string): { pricing: Price } | undefined;
}

export interface ModelCalls {
  model: string;
  calls: number;
}

export interface Baseline {
  model: string;
  /** Priced calls in the window. */
  calls: number;
  pricePerTokenPico: bigint;
}

/** Blended list price per token in integer pico-USD: (input + output) / 2, half up. */
export function blendedPicoPerToken(pricing: Pick<Price, 'input' | 'output'>): bigint {
  return (picoPerToken(pricing.input) + picoPerToken(pricing.output) + 1n) / 2n;
}

/** 1-based nearest rank of a percentile over n values: ceil(p / 100 * n), at least 1. */
export function nearestRank(percentile: number, n: number): number {
  return Math.max(1, Math.ceil((percentile * n) / 100));
}

/**
 * One key's baseline from its call counts per model, or undefined when no call has a list
 * price. The counts stand for that many calls each at the model's price.
 */
export function pickBaseline(counts: readonly ModelCalls[], catalog: PriceLookup, percentile = BASELINE_PERCENTILE): Baseline | undefined {
  const priced: Array<{ model: string; calls: number; price: bigint }> = [];
  for (const { model, calls } of counts) {
    const pricing = catalog.chatModel(model)?.pricing;
    if (pricing && calls > 0) priced.push({ model, calls, price: blendedPicoPerToken(pricing) });
  }
  const total = priced.reduce((sum, row) => sum + row.calls, 0);
  if (total === 0) return undefined;
  priced.sort((a, b) => (a.price < b.price ? -1 : a.price > b.price ? 1 : a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  const rank = nearestRank(percentile, total);
  let seen = 0;
  for (const row of priced) {
    seen += row.calls;
    if (seen >= rank) return { model: row.model, calls: total, pricePerTokenPico: row.price };
  }
  throw new Error('unreachable: rank beyond the call count');
}

/** Call counts per key and model in the window, one aggregate query over the ledger. */
export async function callsPerKeyAndModel(prisma: Prisma, from: Date, to: Date): Promise<Map<string, ModelCalls[]>> {
  const rows = await prisma.$queryRaw<Array<{ key_id: string; model: string; calls: number }>>`
    SELECT key_id, model, count(*)::int AS calls
      FROM billing.ledger_entry
     WHERE kind = 'chat' AND occurred_at > ${from} AND occurred_at <= ${to}
     GROUP BY key_id, model`;
  const byKey = new Map<string, ModelCalls[]>();
  for (const row of rows) {
    const list = byKey.get(row.key_id) ?? [];
    list.push({ model: row.model, calls: Number(row.calls) });
    byKey.set(row.key_id, list);
  }
  return byKey;
}

export interface RecomputeResult {
  /** Keys with a baseline row after the run. */
  keys: number;
  computedAt: Date;
}

/** Recomputes every key's baseline from the last 30 days of the ledger and replaces key_baseline. */
export async function recomputeBaselines(prisma: Prisma, catalog: PriceLookup, now: Date = new Date()): Promise<RecomputeResult> {
  const from = new Date(now.getTime() - BASELINE_WINDOW_DAYS * DAY_MS);
  const counts = await callsPerKeyAndModel(prisma, from, now);
  const baselines: Array<[string, Baseline]> = [];
  for (const [keyId, models] of counts) {
    const baseline = pickBaseline(models, catalog);
    if (baseline) baselines.push([keyId, baseline]);
  }
  baselines.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < baselines.length; i += WRITE_BATCH) {
    const batch = baselines.slice(i, i + WRITE_BATCH);
    await prisma.$executeRaw`
      INSERT INTO billing.key_baseline (key_id, model, calls, price_per_token_pico, computed_at)
      SELECT k, m, c, p::bigint, ${now}
        FROM unnest(${batch.map(([k]) => k)}::text[], ${batch.map(([, b]) => b.model)}::text[], ${batch.map(([, b]) => b.calls)}::int[], ${batch.map(([, b]) => b.pricePerTokenPico.toString())}::text[]) AS t(k, m, c, p)
      ON CONFLICT (key_id) DO UPDATE
         SET model = EXCLUDED.model, calls = EXCLUDED.calls, price_per_token_pico = EXCLUDED.price_per_token_pico, computed_at = EXCLUDED.computed_at`;
  }
  // Keys without a priced call in the window: every row this run wrote has computed_at = now.
  await prisma.$executeRaw`DELETE FROM billing.key_baseline WHERE computed_at < ${now}`;
  return { keys: baselines.length, computedAt: now };
}

/**
 * One key's baseline now (same rules as the nightly run), written to key_baseline. Billing runs
 * it when a key reaches its 20th answered call, so the baseline applies from then on rather
 * than from the next night. Returns the baseline, or undefined when the key has no priced call.
 */
export async function recomputeKeyBaseline(prisma: Prisma, catalog: PriceLookup, keyId: string, now: Date = new Date()): Promise<Baseline | undefined> {
  const from = new Date(now.getTime() - BASELINE_WINDOW_DAYS * DAY_MS);
  const rows = await prisma.$queryRaw<Array<{ model: string; calls: number }>>`
    SELECT model, count(*)::int AS calls
      FROM billing.ledger_entry
     WHERE kind = 'chat' AND key_id = ${keyId} AND occurred_at > ${from} AND occurred_at <= ${now}
     GROUP BY model`;
  const baseline = pickBaseline(rows.map((row) => ({ model: row.model, calls: Number(row.calls) })), catalog);
  if (!baseline) return undefined;
  await prisma.keyBaseline.upsert({
    where: { keyId },
    create: { keyId, model: baseline.model, calls: baseline.calls, pricePerTokenPico: baseline.pricePerTokenPico, computedAt: now },
    update: { model: baseline.model, calls: baseline.calls, pricePerTokenPico: baseline.pricePerTokenPico, computedAt: now },
  });
  return baseline;
}

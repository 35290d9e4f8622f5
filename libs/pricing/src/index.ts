/**
 * Prices in integer micros (millionths of a USD); money is never a float.
 *
 * A list price of X USD per million tokens is X micros per token. Catalog prices have at most
 * six decimals, so each is held as an integer number of pico-USD per token (X * 10^6); every
 * token count times that is an exact integer. Totals are summed exactly in pico-USD and
 * rounded once, half up, to micros (the one rounding rule: `roundPicoToMicros`).
 */

export interface ListPrice {
  /** USD per million tokens */
  input: number;
  output: number;
  cache_read: number;
  /** 5-minute write rate */
  cache_write: number;
}

export interface TokenUsage {
  /** All input tokens, cached or not (usage.prompt_tokens). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache. */
  cachedTokens: number;
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens: number;
  /** `1h` writes cost 2x input; `5m` writes use the model's cache_write rate (1.25x input on the explicit vendor). */
  cacheTtl?: '5m' | '1h' | '';
}

const PICO_PER_MICRO = 1_000_000n;

/** USD per million tokens as integer pico-USD per token (exact for up to 6 decimals). */
export function picoPerToken(usdPerMillion: number): bigint {
  if (!Number.isFinite(usdPerMillion) || usdPerMillion < 0) throw new RangeError(`invalid price ${usdPerMillion}`);
  return BigInt(Math.round(usdPerMillion * 1_000_000));
}

/** The rounding rule: pico-USD to micros, half up. */
export function roundPicoToMicros(pico: bigint): number {
  return Number((pico + PICO_PER_MICRO / 2n) / PICO_PER_MICRO);
}

/** Exact list price of a call in pico-USD. */
export function listPricePico(price: ListPrice, usage: TokenUsage): bigint {
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens, usage.inputTokens - cached);
  const uncached = usage.inputTokens - cached - written;
  const writeRate = usage.cacheTtl === '1h' ? picoPerToken(price.input) * 2n : picoPerToken(price.cache_write);
  return (
    BigInt(uncached) * picoPerToken(price.input) +
    BigInt(cached) * picoPerToken(price.cache_read) +
    BigInt(written) * writeRate +
    BigInt(usage.outputTokens) * picoPerToken(price.output)
  );
}

export function listPriceMicros(price: ListPrice, usage: TokenUsage): number {
  return roundPicoToMicros(listPricePico(price, usage));
}

/** `percent` of an exact pico amount, rounded by the one rule. Percent may have up to 4 decimals. */
export function percentOfPicoToMicros(pico: bigint, percent: number): number {
  const basisPoints = BigInt(Math.round(percent * 10_000));
  return roundPicoToMicros((pico * basisPoints) / 1_000_000n);
}

export interface CostInput {
  price: ListPrice;
  usage: TokenUsage;
  /** The plan's service fee in percent of vendor_micros. */
  serviceFeePercent: number;
  /** Fixed fee of an auto request (0 on a named model). */
  callFeeMicros: number;
  /** The organization's own vendor key served: vendor_micros and the fee on it are 0. */
  byok: boolean;
}

export interface CostBreakdown {
  vendor_micros: number;
  service_fee_micros: number;
  call_fee_micros: number;
  cost_micros: number;
  /** List price of the call on the model that served, whoever paid the vendor. */
  list_micros: number;
}

/** svc.cost's charged fields for one call. */
export function priceCall(input: CostInput): CostBreakdown {
  const listPico = listPricePico(input.price, input.usage);
  const list = roundPicoToMicros(listPico);
  const vendor = input.byok ? 0 : list;
  const serviceFee = input.byok ? 0 : percentOfPicoToMicros(listPico, input.serviceFeePercent);
  return {
    vendor_micros: vendor,
    service_fee_micros: serviceFee,
    call_fee_micros: input.callFeeMicros,
    cost_micros: vendor + serviceFee + input.callFeeMicros,
    list_micros: list,
  };
}

/** USD per million tokens with the plan fee included (Model object svc.pricing), rounded to 6 decimals. */
export function withPlanFee(usdPerMillion: number, percent: number): number {
  const pico = picoPerToken(usdPerMillion);
  const withFee = pico + (pico * BigInt(Math.round(percent * 10_000))) / 1_000_000n;
  return Number(withFee) / 1_000_000;
}

/**
 * Fault injection. A fault spec is a comma-separated list: at most one outcome fault, plus an
 * optional `hang:<ms>` that delays whatever follows. See README.md for the table.
 */

export type OutcomeFault =
  | { kind: 'status'; status: number }
  | { kind: 'rate_limit'; retryAfterSeconds?: number }
  | { kind: 'timeout' }
  | { kind: 'cut'; chunks: number }
  | { kind: 'refuse' }
  | { kind: 'invalid' }
  | { kind: 'auth' }
  | { kind: 'garbage' }
  | { kind: 'empty' }
  | { kind: 'not-json' }
  /** A flex request refused for lack of capacity; a standard request is answered as usual. */
  | { kind: 'capacity' };

export interface FaultPlan {
  hangMs: number;
  outcome?: OutcomeFault;
}

export const NO_FAULT: FaultPlan = Object.freeze({ hangMs: 0 });

export class FaultSyntaxError extends Error {
  override name = 'FaultSyntaxError';
}

function nonNegativeInt(text: string | undefined, item: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new FaultSyntaxError(`fault "${item}": expected a non-negative integer`);
  return Number(text);
}

function parseItem(item: string): OutcomeFault | { kind: 'hang'; ms: number } {
  const [rawName, arg, ...rest] = item.split(':').map((part) => part.trim());
  const name = (rawName ?? '').toLowerCase();
  if (rest.length > 0) throw new FaultSyntaxError(`fault "${item}": too many ':' parts`);
  const noArg = <T>(fault: T): T => {
    if (arg !== undefined) throw new FaultSyntaxError(`fault "${item}": takes no argument`);
    return fault;
  };
  switch (name) {
    case 'status': {
      const status = nonNegativeInt(arg, item);
      if (status < 400 || status > 599) throw new FaultSyntaxError(`fault "${item}": status must be 400-599`);
      return { kind: 'status', status };
    }
    case '429':
      return arg === undefined || arg === '' ? { kind: 'rate_limit' } : { kind: 'rate_limit', retryAfterSeconds: nonNegativeInt(arg, item) };
    case 'hang':
      return { kind: 'hang', ms: nonNegativeInt(arg, item) };
    case 'cut':
      return { kind: 'cut', chunks: nonNegativeInt(arg, item) };
    case 'timeout':
    case 'refuse':
    case 'invalid':
    case 'auth':
    case 'garbage':
    case 'empty':
    case 'not-json':
    case 'capacity':
      return noArg({ kind: name });
    default:
      throw new FaultSyntaxError(`unknown fault "${item}"`);
  }
}

export function parseFaultSpec(spec: string): FaultPlan {
  const plan: { hangMs: number; outcome?: OutcomeFault } = { hangMs: 0 };
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    // `none` lets one request opt out of a fault configured for all (SIM_FAULT).
    if (item.toLowerCase() === 'none') continue;
    const fault = parseItem(item);
    if (fault.kind === 'hang') plan.hangMs += fault.ms;
    else if (plan.outcome) throw new FaultSyntaxError(`fault spec "${spec}": only one fault besides hang is allowed`);
    else plan.outcome = fault;
  }
  return plan;
}

export interface FaultSources {
  /** x-sim-fault header, when sent. */
  header?: string;
  /** x-sim-fault-model header: limits the fault to requests for this upstream model. */
  modelHeader?: string;
  /** SIM_FAULT: applies to every request that sends no x-sim-fault. */
  configured?: string;
  /** The model this request asks for. */
  model: string;
}

/** The fault for one request; throws FaultSyntaxError on a malformed header. */
export function selectFaults(sources: FaultSources): FaultPlan {
  const spec = sources.header?.trim() ? sources.header : sources.configured;
  if (!spec?.trim()) return NO_FAULT;
  const plan = parseFaultSpec(spec);
  const target = sources.modelHeader?.trim();
  if (target && target !== sources.model) return NO_FAULT;
  return plan;
}

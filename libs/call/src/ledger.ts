import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { admissionKey, admissionOf, type CallAdmission, type CallEstimate } from './billing';
import type { BillingPort, CallerKey, TokenGate, UsageRecord, UsageSink } from './ports';

/**
 * One call's money and limits, the skeleton every billed call (chat, embeddings, and what runs on
 * the workers) shares: the reservation admission made, the key's token charge, the headers both
 * produced, and the promise that the call ends exactly once — settled (its usage record published,
 * which settles the reservation) or released (the reservation given back).
 */
export class CallLedger {
  admission: CallAdmission | undefined;
  /** Headers for the caller's response: the key's buckets, then admission's (quota, Free plan). */
  readonly headers: Record<string, string> = {};
  private charged = 0;
  private checked = false;
  private ended = false;
  /** Admission failed without an answer (billing unreachable, deadline): it may still have reserved. */
  private admissionUnknown = false;

  constructor(
    readonly callId: string,
    readonly key: CallerKey,
    private readonly ports: { billing: BillingPort; usage: UsageSink; tokens?: TokenGate; logger: Logger },
  ) {}

  /** Reserves `estimate` (throws the refusal: 402, 429 quota or Free limits, 503 billing_unavailable). */
  async admit(estimate: CallEstimate, details: { byok: boolean; auto: boolean; inputTokens: number; maxTokens?: number }): Promise<CallAdmission> {
    const answer = await this.ports.billing
      .admit({
        call_id: this.callId,
        organization_id: this.key.organization_id,
        key_id: this.key.key_id,
        key: admissionKey(this.key),
        estimated_micros: estimate.micros,
        estimated_list_micros: estimate.listMicros,
        byok: details.byok,
        auto: details.auto,
        input_tokens: details.inputTokens,
        ...(details.maxTokens !== undefined ? { max_tokens: details.maxTokens } : {}),
      })
      .catch((error: unknown) => {
        // No answer is not "nothing reserved": the call is released all the same (idempotent).
        if (error instanceof ServiceError && error.code === 'billing_unavailable') this.admissionUnknown = true;
        throw error;
      });
    this.admission = admissionOf(this.callId, answer, estimate.micros);
    Object.assign(this.headers, this.admission.headers);
    return this.admission;
  }

  /** Takes one request and `tokens` from the key's buckets (no-op without a token gate). */
  async chargeTokens(tokens: number): Promise<void> {
    if (!this.ports.tokens) return;
    const result = await this.ports.tokens.check(this.key, tokens);
    this.checked = true;
    this.charged = result.charged;
    this.setBucketHeaders(result.headers);
  }

  /** Moves the token charge to the real count (spec: refunded to the real count after the call). */
  async refundTokens(actualTokens: number): Promise<void> {
    const charged = this.charged;
    this.charged = 0;
    if (charged === 0 || !this.ports.tokens) return;
    const headers = await this.ports.tokens.refund(this.key, charged, actualTokens);
    if (headers) this.setBucketHeaders(headers);
  }

  /** The key bucket's headers; on the Free limits admission's stand over them. */
  private setBucketHeaders(headers: Record<string, string>): void {
    Object.assign(this.headers, headers, this.admission?.headers ?? {});
  }

  /**
   * A refusal once the key is known: it carries admission's headers and the key bucket's (read
   * without taking anything when the check has not run; RULINGS 6), and the token charge goes back.
   */
  async refuse(error: unknown): Promise<void> {
    if (error instanceof ServiceError) {
      for (const [name, value] of Object.entries(this.admission?.headers ?? {})) if (!(name in error.headers)) error.headers[name] = value;
      if (this.ports.tokens) {
        const bucket = this.checked ? this.headers : await this.ports.tokens.peek(this.key).catch(() => ({}) as Record<string, string>);
        for (const [name, value] of Object.entries(bucket)) if (!(name in error.headers)) error.headers[name] = value;
      }
    }
    if (this.charged > 0) await this.refundTokens(0).catch(() => undefined);
  }

  /**
   * Publishes the usage record (which settles the reservation). The call is then ended. Under a
   * spend limit its hold moves to its cost at the same time, so a client calling one after another
   * is not refused for the estimate of a call that already ended while billing settles it; that
   * step failing leaves the estimate held until then, as before.
   */
  async settle(record: Omit<UsageRecord, 'call_id' | 'organization_id' | 'key_id'>): Promise<void> {
    if (this.ended) throw new Error(`call ${this.callId} already ended`);
    this.ended = true;
    const published = this.ports.usage.record({ call_id: this.callId, organization_id: this.key.organization_id, key_id: this.key.key_id, ...record });
    const limited = this.admission?.headers['x-svc-quota-scope'] !== undefined && !record.byok && record.plan !== 'free';
    if (!limited || !this.ports.billing.holdCost) return published;
    const held = this.ports.billing.holdCost(this.callId, this.key.organization_id, Number(record.cost_micros)).catch((error: unknown) => {
      this.ports.logger.warn('hold not moved to the call’s cost; the estimate stays held until billing settles it', { call_id: this.callId, err: error });
    });
    await Promise.all([published, held]);
  }

  /**
   * Ends a call that will not be settled: the reservation goes back to billing. Idempotent; fire
   * and forget (a release that fails is given back when the reservation expires).
   */
  release(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.admission && !this.admissionUnknown) return;
    this.ports.billing.release(this.callId, this.key.organization_id).catch((error: unknown) => {
      this.ports.logger.warn('reservation release failed; it expires on its own', { call_id: this.callId, err: error });
    });
  }

  get isEnded(): boolean {
    return this.ended;
  }
}

/** Throws the first failure of steps that all ran to their end (in step order). */
export function throwFirstFailure(results: readonly PromiseSettledResult<unknown>[]): void {
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

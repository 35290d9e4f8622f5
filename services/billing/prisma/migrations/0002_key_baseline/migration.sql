-- billing: each key's baseline model (spec: Baseline rules), written by the nightly
-- recompute (services/billing/src/jobs/baseline-cli.ts). One row per key with chat calls in
-- the last 30 days: `calls` is how many, `model` the model at the 95th percentile of list
-- price per token over those calls, `price_per_token_pico` that model's blended list price.
CREATE TABLE "billing"."key_baseline" (
    "key_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "price_per_token_pico" BIGINT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "key_baseline_pkey" PRIMARY KEY ("key_id")
);

-- The recompute reads the ledger by time window across all keys.
CREATE INDEX "ledger_entry_occurred_at_idx" ON "billing"."ledger_entry"("occurred_at");

-- billing: accounts, organizations, projects, API keys, credit and the ledger.
CREATE SCHEMA IF NOT EXISTS "billing";

CREATE TABLE "billing"."account" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "disabled_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "account_email_key" ON "billing"."account"("email");

CREATE TABLE "billing"."organization" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'paid',
    "status" TEXT NOT NULL DEFAULT 'active',
    "stop_at_zero" BOOLEAN NOT NULL DEFAULT false,
    "topped_up" BOOLEAN NOT NULL DEFAULT false,
    "disabled_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "retention_days" INTEGER NOT NULL DEFAULT 30,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organization_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "organization_plan_check" CHECK ("plan" IN ('paid', 'free')),
    CONSTRAINT "organization_status_check" CHECK ("status" IN ('active', 'suspended'))
);
CREATE INDEX "organization_account_id_idx" ON "billing"."organization"("account_id");

CREATE TABLE "billing"."project" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "disabled_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "project_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "project_organization_id_idx" ON "billing"."project"("organization_id");

CREATE TABLE "billing"."api_key" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "allowed_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "spend_limit_micros" BIGINT,
    "spend_period" TEXT,
    "fallback_policy" TEXT NOT NULL DEFAULT 'cross_vendor',
    "rpm_limit" INTEGER NOT NULL DEFAULT 600,
    "tpm_limit" INTEGER NOT NULL DEFAULT 200000,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_key_fallback_policy_check" CHECK ("fallback_policy" IN ('same_vendor', 'cross_vendor', 'none')),
    CONSTRAINT "api_key_spend_period_check" CHECK ("spend_period" IS NULL OR "spend_period" IN ('day', 'week', 'month', 'life'))
);
CREATE UNIQUE INDEX "api_key_hash_key" ON "billing"."api_key"("hash");
CREATE INDEX "api_key_organization_id_idx" ON "billing"."api_key"("organization_id");

CREATE TABLE "billing"."credit_entry" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "credit_entry_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "credit_entry_organization_id_idx" ON "billing"."credit_entry"("organization_id");

CREATE TABLE "billing"."ledger_entry" (
    "call_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "line" TEXT NOT NULL DEFAULT '',
    "input_tokens" INTEGER NOT NULL,
    "output_tokens" INTEGER NOT NULL,
    "cached_tokens" INTEGER NOT NULL DEFAULT 0,
    "cache_write_tokens" INTEGER NOT NULL DEFAULT 0,
    "reasoning_tokens" INTEGER NOT NULL DEFAULT 0,
    "vendor_micros" BIGINT NOT NULL,
    "service_fee_micros" BIGINT NOT NULL,
    "call_fee_micros" BIGINT NOT NULL,
    "cost_micros" BIGINT NOT NULL,
    "direct_micros" BIGINT NOT NULL,
    "byok" BOOLEAN NOT NULL DEFAULT false,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_entry_pkey" PRIMARY KEY ("call_id")
);
CREATE INDEX "ledger_entry_organization_id_occurred_at_idx" ON "billing"."ledger_entry"("organization_id", "occurred_at");
CREATE INDEX "ledger_entry_key_id_occurred_at_idx" ON "billing"."ledger_entry"("key_id", "occurred_at");

ALTER TABLE "billing"."organization" ADD CONSTRAINT "organization_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "billing"."account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "billing"."project" ADD CONSTRAINT "project_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "billing"."organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "billing"."api_key" ADD CONSTRAINT "api_key_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "billing"."organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "billing"."api_key" ADD CONSTRAINT "api_key_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "billing"."project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "billing"."credit_entry" ADD CONSTRAINT "credit_entry_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "billing"."organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

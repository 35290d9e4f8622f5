-- batch: the batch object's fields, and one row per input line (its outcome, sealed).
ALTER TABLE "batch"."batch" DROP COLUMN "body";
ALTER TABLE "batch"."batch"
    ADD COLUMN "endpoint" TEXT NOT NULL DEFAULT '/v1/chat/completions',
    ADD COLUMN "completion_window" TEXT NOT NULL DEFAULT '24h',
    ADD COLUMN "metadata" JSONB,
    ADD COLUMN "allow_standard_price" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "errors" JSONB,
    ADD COLUMN "output_file_id" TEXT,
    ADD COLUMN "error_file_id" TEXT,
    ADD COLUMN "total" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "completed" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "failed" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "vendor_micros" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "billed_micros" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "direct_micros" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "saved_micros" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "expires_at" TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '24 hours'),
    ADD COLUMN "in_progress_at" TIMESTAMPTZ(3),
    ADD COLUMN "finalizing_at" TIMESTAMPTZ(3),
    ADD COLUMN "completed_at" TIMESTAMPTZ(3),
    ADD COLUMN "failed_at" TIMESTAMPTZ(3),
    ADD COLUMN "expired_at" TIMESTAMPTZ(3),
    ADD COLUMN "cancelling_at" TIMESTAMPTZ(3),
    ADD COLUMN "cancelled_at" TIMESTAMPTZ(3),
    -- The organization's retention: the output and error files expire with it.
    ADD COLUMN "retention_days" INTEGER NOT NULL DEFAULT 30,
    -- While a replica writes the batch's files (a replica that died leaves it to lapse).
    ADD COLUMN "lease_until" TIMESTAMPTZ(3);
CREATE INDEX "batch_status_idx" ON "batch"."batch"("status");

CREATE TABLE "batch"."batch_line" (
    "batch_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "custom_id" TEXT NOT NULL,
    -- pending, completed, failed, cancelled, expired
    "status" TEXT NOT NULL DEFAULT 'pending',
    -- The line of the output or error file, sealed with the organization's key (AES-256-GCM).
    "result" BYTEA,
    CONSTRAINT "batch_line_pkey" PRIMARY KEY ("batch_id", "index")
);
CREATE UNIQUE INDEX "batch_line_batch_id_custom_id_key" ON "batch"."batch_line"("batch_id", "custom_id");
CREATE INDEX "batch_line_pending_idx" ON "batch"."batch_line"("batch_id") WHERE "status" = 'pending';

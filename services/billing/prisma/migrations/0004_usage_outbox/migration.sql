-- billing: the usage outbox (ARCHITECTURE.md, "Usage that cannot reach the broker").
-- An edge that answered a call but could not hand its usage record to RabbitMQ (no connection,
-- or no confirm within its time limit) inserts the record here, ON CONFLICT (call_id) DO NOTHING.
-- Billing's sweep settles the rows through the same idempotent settlement as the queue (the
-- ledger row and the row's deletion in one transaction) and deletes them. A row that keeps
-- failing for a reason other than an outage is marked dead (dead_at) after its attempts and
-- left for `npm run admin -- usage replay`. Not a Prisma model: only raw SQL touches it.
CREATE TABLE "billing"."usage_outbox" (
    "call_id" TEXT NOT NULL,
    "record" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "dead_at" TIMESTAMPTZ(3),
    CONSTRAINT "usage_outbox_pkey" PRIMARY KEY ("call_id")
);
CREATE INDEX "usage_outbox_pending_idx" ON "billing"."usage_outbox"("created_at") WHERE "dead_at" IS NULL;

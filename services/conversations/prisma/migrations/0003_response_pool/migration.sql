-- conversations: the organization's vendor-batch pool for background responses (spec: POST
-- /v1/responses `background`, States and transitions). A batch-bound background response (a
-- deadline of 24 hours or more on a named model with a batch tier) is stored `queued` and gets a
-- row here in the same transaction (CompleteTurn). The workers claim waiting rows per
-- (organization, vendor) with FOR UPDATE SKIP LOCKED under a lease, send them as one vendor batch,
-- mark them `sent` with the batch's handle, poll it, and end each response with its line's answer;
-- ending the response (UpdateResponse) removes its row in the same transaction.
CREATE TABLE "conversations"."response_pool" (
    "response_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    -- waiting: not yet with a vendor (cancellable); claimed: a worker is sending it (lease
    -- claimed_until); sent: inside the vendor batch vendor_batch_id (not cancellable).
    "state" TEXT NOT NULL DEFAULT 'waiting',
    -- The turn as the workers run it (libs/messages response-run.ts shape: key record, body, svc
    -- headers, head, parent response, retention).
    "job" JSONB NOT NULL,
    "enqueued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claim_id" TEXT,
    "claimed_until" TIMESTAMPTZ(3),
    "vendor_batch_id" TEXT,
    -- libs/vendors VendorBatchHandle (plain JSON): any replica polls it.
    "vendor_batch" JSONB,
    "sent_at" TIMESTAMPTZ(3),
    CONSTRAINT "response_pool_pkey" PRIMARY KEY ("response_id"),
    CONSTRAINT "response_pool_state_check" CHECK ("state" IN ('waiting', 'claimed', 'sent')),
    CONSTRAINT "response_pool_sent_check" CHECK ("state" <> 'sent' OR "vendor_batch_id" IS NOT NULL)
);
ALTER TABLE "conversations"."response_pool" ADD CONSTRAINT "response_pool_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "conversations"."response"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Flush: the waiting rows of one (organization, vendor), oldest first.
CREATE INDEX "response_pool_waiting_idx" ON "conversations"."response_pool"("organization_id", "vendor", "enqueued_at") WHERE "state" = 'waiting';
-- Results: the rows of one vendor batch.
CREATE INDEX "response_pool_vendor_batch_idx" ON "conversations"."response_pool"("vendor_batch_id") WHERE "vendor_batch_id" IS NOT NULL;

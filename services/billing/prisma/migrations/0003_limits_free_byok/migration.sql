-- billing: spend limits per member, the Free plan and BYOK.
-- Ledger rows say whether the call was served under the Free limits (not charged to the
-- balance), which member's monthly quota it counts against, and whether the key's baseline was
-- still pending (such calls save nothing). Redis counters are rebuilt from these columns.
ALTER TABLE "billing"."ledger_entry" ADD COLUMN "plan" TEXT NOT NULL DEFAULT '';
ALTER TABLE "billing"."ledger_entry" ADD COLUMN "member_id" TEXT NOT NULL DEFAULT '';
ALTER TABLE "billing"."ledger_entry" ADD COLUMN "baseline_pending" BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX "ledger_entry_organization_id_member_id_occurred_at_idx" ON "billing"."ledger_entry"("organization_id", "member_id", "occurred_at");

ALTER TABLE "billing"."api_key" ADD COLUMN "member_id" TEXT;

CREATE TABLE "billing"."organization_member" (
    "organization_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "monthly_quota_micros" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organization_member_pkey" PRIMARY KEY ("organization_id", "account_id"),
    CONSTRAINT "organization_member_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "billing"."organization"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "organization_member_account_id_idx" ON "billing"."organization_member"("account_id");

-- Every existing organization's owner is its first member.
INSERT INTO "billing"."organization_member" ("organization_id", "account_id", "role", "created_at")
SELECT "id", "account_id", 'owner', "created_at" FROM "billing"."organization"
ON CONFLICT DO NOTHING;

CREATE TABLE "billing"."vendor_key" (
    "organization_id" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "vendor_key_pkey" PRIMARY KEY ("organization_id", "vendor"),
    CONSTRAINT "vendor_key_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "billing"."organization"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

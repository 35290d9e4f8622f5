-- batch: uploaded files and batches.
CREATE SCHEMA IF NOT EXISTS "batch";

CREATE TABLE "batch"."file" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "blob" BYTEA NOT NULL,
    "line_count" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "file_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "file_organization_id_created_at_idx" ON "batch"."file"("organization_id", "created_at");

CREATE TABLE "batch"."batch" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "input_file_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "batch_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "batch_organization_id_created_at_idx" ON "batch"."batch"("organization_id", "created_at");

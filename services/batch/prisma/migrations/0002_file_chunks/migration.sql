-- batch: files stored encrypted in chunks, a data key per organization.
--
-- A file row is written when its upload starts (status 'uploading', invisible to the API) and
-- becomes 'processed' when the upload commits. Its content is a sequence of chunks in the blob
-- store (the default store is batch.file_chunk below); the row says how many there are.
-- Deleted files are marked (deleted_at) and swept with their chunks.

-- Nothing was ever stored in the single-blob column (no RPC wrote files before this migration).
ALTER TABLE "batch"."file" DROP COLUMN "blob";
ALTER TABLE "batch"."file" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'uploading';
ALTER TABLE "batch"."file" ADD COLUMN "chunk_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "batch"."file" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
CREATE INDEX "file_expires_at_idx" ON "batch"."file"("expires_at");
CREATE INDEX "batch_input_file_id_idx" ON "batch"."batch"("input_file_id");

-- The Postgres blob store: one row per encrypted chunk (iv || tag || ciphertext), keyed by the
-- blob (the file id) and its position. No foreign key: the blob store is behind an interface
-- and another driver keeps chunks elsewhere; the sweeper removes the blobs of removed files.
CREATE TABLE "batch"."file_chunk" (
    "blob_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    CONSTRAINT "file_chunk_pkey" PRIMARY KEY ("blob_id", "index")
);

-- An organization's data key, sealed (AES-256-GCM) under FILES_ENCRYPTION_KEY with the
-- additional data "files:<organization id>".
CREATE TABLE "batch"."organization_key" (
    "organization_id" TEXT NOT NULL,
    "sealed_key" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organization_key_pkey" PRIMARY KEY ("organization_id")
);

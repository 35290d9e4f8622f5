-- conversations: stored responses, conversations and their items.
CREATE SCHEMA IF NOT EXISTS "conversations";

CREATE TABLE "conversations"."conversation" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "retention_days" INTEGER,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_turn_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "conversation_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "conversation_organization_id_idx" ON "conversations"."conversation"("organization_id");
CREATE INDEX "conversation_expires_at_idx" ON "conversations"."conversation"("expires_at");

CREATE TABLE "conversations"."item" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "response_id" TEXT,
    "seq" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "token_estimate" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "item_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "item_conversation_id_seq_idx" ON "conversations"."item"("conversation_id", "seq");

CREATE TABLE "conversations"."response" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "previous_response_id" TEXT,
    "status" TEXT NOT NULL,
    "background" BOOLEAN NOT NULL DEFAULT false,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "response_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "response_organization_id_idx" ON "conversations"."response"("organization_id");
CREATE INDEX "response_conversation_id_idx" ON "conversations"."response"("conversation_id");

ALTER TABLE "conversations"."item" ADD CONSTRAINT "item_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"."conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversations"."response" ADD CONSTRAINT "response_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"."conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

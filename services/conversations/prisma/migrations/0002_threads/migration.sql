-- conversations: threads. A conversation is a tree: a response points at its parent response
-- (NULL: the conversation's root), and a thread is the chain of parents. Every item belongs to
-- one node of the tree (item.response_id; NULL: the root). See services/conversations/README.md,
-- "Conversations storage".

-- The parent on the thread (not the request's previous_response_id, which the body keeps as sent).
ALTER TABLE "conversations"."response" RENAME COLUMN "previous_response_id" TO "parent_response_id";
-- Order in which responses reached their current state: the latest turn of a conversation is its
-- completed or incomplete response with the highest turn_seq.
ALTER TABLE "conversations"."response" ADD COLUMN "turn_seq" BIGSERIAL NOT NULL;
-- What the edge keeps to replay the response's stream (opaque to this service).
ALTER TABLE "conversations"."response" ADD COLUMN "stream" JSONB;
ALTER TABLE "conversations"."response" ADD CONSTRAINT "response_parent_response_id_fkey" FOREIGN KEY ("parent_response_id") REFERENCES "conversations"."response"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "response_parent_response_id_idx" ON "conversations"."response"("parent_response_id");
DROP INDEX "conversations"."response_conversation_id_idx";
CREATE INDEX "response_conversation_id_turn_seq_idx" ON "conversations"."response"("conversation_id", "turn_seq");

-- input, output (a turn's), added (stored without a turn) or compaction.
ALTER TABLE "conversations"."item" ADD COLUMN "origin" TEXT NOT NULL DEFAULT 'input';
-- Characters under the token rule (libs/call tokens.ts): tokens = ceil(characters / 4).
ALTER TABLE "conversations"."item" ADD COLUMN "characters" INTEGER NOT NULL DEFAULT 0;
-- A compaction item: the ids of the items it stands in for.
ALTER TABLE "conversations"."item" ADD COLUMN "replaces" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "conversations"."item" ADD CONSTRAINT "item_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "conversations"."response"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "item_response_id_seq_idx" ON "conversations"."item"("response_id", "seq");
-- The root's items (stored before any turn), read by every thread of the conversation.
CREATE INDEX "item_root_idx" ON "conversations"."item"("conversation_id", "seq") WHERE "response_id" IS NULL;

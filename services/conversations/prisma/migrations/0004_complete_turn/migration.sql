-- conversations: CompleteTurn's writes as one function, so a turn is stored in one round trip
-- (called on its own, the statement is its own transaction: lock, check, write and commit at once).
--
-- The conversation row is locked first (FOR UPDATE); the thread's totals are read after the lock
-- (a VOLATILE function takes a fresh snapshot for each statement under READ COMMITTED), so they
-- include every turn that held the row before. Only when the parent is in the conversation and
-- the thread stays within its limits is anything written: the conversation (created, or its
-- retention clock restarted), the response, and its items in order.
--
-- Returns one row: conversation_found (false: no such unexpired conversation of the organization; nothing
-- written), retention_days (the conversation's own; null: the organization's), stored, parent_found,
-- the thread's entries and characters before the turn, and the conversation's new expires_at.
CREATE FUNCTION "conversations"."complete_turn"(
    p_parent TEXT,                 -- the thread head the turn continues; null = the root
    p_conversation TEXT,
    p_organization TEXT,
    p_create BOOLEAN,              -- the turn creates the conversation
    p_own_retention INTEGER,       -- retention of a conversation it creates (null: the organization's)
    p_organization_retention INTEGER,
    p_entries INTEGER,             -- what the turn adds: entries and characters
    p_characters BIGINT,
    p_max_entries INTEGER,         -- the thread limits
    p_max_characters BIGINT,
    p_response TEXT,
    p_status TEXT,
    p_background BOOLEAN,
    p_body JSONB,
    p_stream JSONB,
    p_items JSONB,                 -- [{id, type, origin, body, characters, tokens}] in order
    p_now TIMESTAMPTZ
) RETURNS TABLE (conversation_found BOOLEAN, retention_days INTEGER, stored BOOLEAN, parent_found BOOLEAN, entries INTEGER, characters BIGINT, expires_at TIMESTAMPTZ)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_retention INTEGER;
    v_parent_found BOOLEAN;
    v_entries INTEGER;
    v_characters BIGINT;
    v_ok BOOLEAN;
    v_expires TIMESTAMPTZ;
BEGIN
    IF p_create THEN
        v_retention := p_own_retention;
    ELSE
        SELECT c.retention_days INTO v_retention FROM conversations.conversation c
         WHERE c.id = p_conversation AND c.organization_id = p_organization AND c.expires_at > p_now
           FOR UPDATE;
        IF NOT FOUND THEN
            RETURN QUERY SELECT false, NULL::INTEGER, false, false, 0, 0::BIGINT, NULL::TIMESTAMPTZ;
            RETURN;
        END IF;
    END IF;

    v_parent_found := p_parent IS NULL OR EXISTS (SELECT 1 FROM conversations.response r WHERE r.id = p_parent AND r.conversation_id = p_conversation);

    -- The thread from the parent up to the root (each node's items by item_response_id_seq_idx;
    -- OFFSET 0 keeps the per-node lookup), then the root's own items.
    WITH RECURSIVE
    chain AS (
        SELECT r.id, r.parent_response_id, 0 AS depth FROM conversations.response r WHERE r.id = p_parent AND r.conversation_id = p_conversation
        UNION ALL
        SELECT r.id, r.parent_response_id, chain.depth + 1
          FROM conversations.response r JOIN chain ON r.id = chain.parent_response_id
         WHERE chain.depth < 1000000
    ),
    thread AS (
        SELECT i.characters FROM chain CROSS JOIN LATERAL (SELECT i.characters FROM conversations.item i WHERE i.response_id = chain.id OFFSET 0) i
        UNION ALL
        SELECT i.characters FROM conversations.item i WHERE i.conversation_id = p_conversation AND i.response_id IS NULL
    )
    SELECT count(*)::INTEGER, COALESCE(sum(thread.characters), 0)::BIGINT INTO v_entries, v_characters FROM thread;

    v_ok := v_parent_found AND v_entries + p_entries <= p_max_entries AND v_characters + p_characters <= p_max_characters;
    IF v_ok THEN
        -- The retention clock in exact milliseconds (as the service computes it), not calendar days.
        v_expires := p_now + (COALESCE(v_retention, p_organization_retention)::BIGINT * 86400000) * INTERVAL '1 millisecond';
        IF p_create THEN
            INSERT INTO conversations.conversation (id, organization_id, metadata, retention_days, expires_at, last_turn_at, created_at)
            VALUES (p_conversation, p_organization, '{}'::JSONB, p_own_retention, v_expires, p_now, p_now);
        ELSE
            UPDATE conversations.conversation SET expires_at = v_expires, last_turn_at = p_now WHERE id = p_conversation;
        END IF;
        INSERT INTO conversations.response (id, organization_id, conversation_id, parent_response_id, status, background, body, stream)
        VALUES (p_response, p_organization, p_conversation, p_parent, p_status, p_background, p_body, p_stream);
        -- In array order, so the items' seq follows it.
        INSERT INTO conversations.item (id, conversation_id, response_id, type, origin, body, characters, token_estimate)
        SELECT e.value->>'id', p_conversation, p_response, e.value->>'type', e.value->>'origin', e.value->'body', (e.value->>'characters')::INTEGER, (e.value->>'tokens')::INTEGER
          FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, position)
         ORDER BY e.position;
    END IF;

    RETURN QUERY SELECT true, v_retention, v_ok, v_parent_found, v_entries, v_characters, v_expires;
END
$fn$;

-- A person's own limits, kept for them across every server (`/kamen me block`,
-- `/kamen me settings challenges:`): who may challenge them directly (`everyone`,
-- `role`: only members of `challenge_role_id`, or `nobody`), and the people they
-- block, whose challenges to them and accepts of their challenges are refused.
-- Forgetting a person deletes their settings and their blocks, both ways.
ALTER TABLE user_settings ADD COLUMN challenges TEXT NOT NULL DEFAULT 'everyone';
ALTER TABLE user_settings ADD COLUMN challenge_role_id BIGINT;
CREATE TABLE user_blocks (
    user_id    BIGINT           NOT NULL,
    blocked_id BIGINT           NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
-- Forgetting finds the rows where the person is the one blocked through this index.
CREATE INDEX user_blocks_by_blocked ON user_blocks (blocked_id);

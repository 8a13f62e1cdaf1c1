-- The ID token of an OIDC browser session (review item "Browser sessions"): logout ends the
-- person's session at the provider too (RP-initiated logout), and the provider wants the ID
-- token of the sign-in as id_token_hint. It is sealed like refresh_token_enc (a protected column,
-- its own AAD), replaced when a refresh brings a new one, and empty for dev sessions.

-- +goose Up
ALTER TABLE user_task_web_sessions ADD COLUMN id_token_enc LONGTEXT;

-- +goose Down
ALTER TABLE user_task_web_sessions DROP COLUMN id_token_enc;

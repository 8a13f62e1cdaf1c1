-- The ID token of an OIDC browser session (review item "Browser sessions"): logout ends the
-- person's session at the provider too (RP-initiated logout), and the provider wants the ID
-- token of the sign-in as id_token_hint. It is sealed like refresh_token_enc (a protected column,
-- its own AAD), replaced when a refresh brings a new one, and empty for dev sessions.
-- As in 00001: no transaction, one statement per goose block without a trailing semicolon.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
ALTER TABLE user_task_web_sessions ADD id_token_enc CLOB
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
ALTER TABLE user_task_web_sessions DROP COLUMN id_token_enc
-- +goose StatementEnd

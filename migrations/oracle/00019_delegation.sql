-- Delegation (SPEC 10.5, issue 31): who delegated a task to its assignee. NULL unless the task
-- is delegated; a return, release or new assignment clears it, a completion keeps it (the
-- outcome is on behalf of the delegator).
-- As in 00001: no transaction, one statement per goose block without a trailing semicolon.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
ALTER TABLE user_tasks ADD delegated_by_provider VARCHAR2(64 CHAR)
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_tasks ADD delegated_by_type VARCHAR2(8 CHAR)
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_tasks ADD delegated_by_id VARCHAR2(255 CHAR)
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_tasks ADD delegated_by_display VARCHAR2(256 CHAR)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
ALTER TABLE user_tasks DROP COLUMN delegated_by_display
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_tasks DROP COLUMN delegated_by_id
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_tasks DROP COLUMN delegated_by_type
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_tasks DROP COLUMN delegated_by_provider
-- +goose StatementEnd

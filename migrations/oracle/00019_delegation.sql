-- Delegation (SPEC 10.5, issue 31): who delegated a task to its assignee. NULL unless the task
-- is delegated; a return, release or new assignment clears it, a completion keeps it (the
-- outcome is on behalf of the delegator).
-- Out-of-office absences (SPEC 10.5): one per user (the primary key), from starts_at until
-- ends_at on the database clock, with the substitute who takes the user's work meanwhile.
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
-- +goose StatementBegin
CREATE TABLE user_task_absences (
    tenant_id           VARCHAR2(64 CHAR) NOT NULL,
    user_provider       VARCHAR2(64 CHAR) NOT NULL,
    user_type           VARCHAR2(8 CHAR) NOT NULL,
    user_id             VARCHAR2(255 CHAR) NOT NULL,
    starts_at           TIMESTAMP(6) NOT NULL,
    ends_at             TIMESTAMP(6) NOT NULL,
    substitute_provider VARCHAR2(64 CHAR) NOT NULL,
    substitute_type     VARCHAR2(8 CHAR) NOT NULL,
    substitute_id       VARCHAR2(255 CHAR) NOT NULL,
    substitute_display  VARCHAR2(256 CHAR),
    created_at          TIMESTAMP(6) NOT NULL,
    updated_at          TIMESTAMP(6) NOT NULL,
    CONSTRAINT pk_user_task_absences PRIMARY KEY (tenant_id, user_provider, user_type, user_id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_absences_substitute ON user_task_absences (tenant_id, substitute_provider, substitute_type, substitute_id, ends_at)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_absences PURGE
-- +goose StatementEnd
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

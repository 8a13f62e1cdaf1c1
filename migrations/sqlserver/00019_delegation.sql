-- Delegation (SPEC 10.5, issue 31): who delegated a task to its assignee. NULL unless the task
-- is delegated; a return, release or new assignment clears it, a completion keeps it (the
-- outcome is on behalf of the delegator).
-- Out-of-office absences (SPEC 10.5): one per user (the primary key), from starts_at until
-- ends_at on the database clock, with the substitute who takes the user's work meanwhile.

-- +goose Up
ALTER TABLE user_tasks ADD delegated_by_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2;
ALTER TABLE user_tasks ADD delegated_by_type NVARCHAR(8) COLLATE Latin1_General_100_BIN2;
ALTER TABLE user_tasks ADD delegated_by_id NVARCHAR(255) COLLATE Latin1_General_100_BIN2;
ALTER TABLE user_tasks ADD delegated_by_display NVARCHAR(256) COLLATE Latin1_General_100_BIN2;

CREATE TABLE user_task_absences (
    tenant_id           NVARCHAR(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    user_provider       NVARCHAR(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    user_type           NVARCHAR(8) COLLATE Latin1_General_100_BIN2 NOT NULL,
    user_id             NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    starts_at           DATETIME2(6) NOT NULL,
    ends_at             DATETIME2(6) NOT NULL,
    substitute_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    substitute_type     NVARCHAR(8) COLLATE Latin1_General_100_BIN2 NOT NULL,
    substitute_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    substitute_display  NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    created_at          DATETIME2(6) NOT NULL,
    updated_at          DATETIME2(6) NOT NULL,
    CONSTRAINT pk_user_task_absences PRIMARY KEY (tenant_id, user_provider, user_type, user_id)
);
CREATE INDEX ix_absences_substitute ON user_task_absences (tenant_id, substitute_provider, substitute_type, substitute_id, ends_at);

-- +goose Down
DROP TABLE user_task_absences;
ALTER TABLE user_tasks DROP COLUMN delegated_by_display;
ALTER TABLE user_tasks DROP COLUMN delegated_by_id;
ALTER TABLE user_tasks DROP COLUMN delegated_by_type;
ALTER TABLE user_tasks DROP COLUMN delegated_by_provider;

-- Delegation (SPEC 10.5, issue 31): who delegated a task to its assignee. NULL unless the task
-- is delegated; a return, release or new assignment clears it, a completion keeps it (the
-- outcome is on behalf of the delegator).

-- +goose Up
ALTER TABLE user_tasks ADD delegated_by_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2;
ALTER TABLE user_tasks ADD delegated_by_type NVARCHAR(8) COLLATE Latin1_General_100_BIN2;
ALTER TABLE user_tasks ADD delegated_by_id NVARCHAR(255) COLLATE Latin1_General_100_BIN2;
ALTER TABLE user_tasks ADD delegated_by_display NVARCHAR(256) COLLATE Latin1_General_100_BIN2;

-- +goose Down
ALTER TABLE user_tasks DROP COLUMN delegated_by_display;
ALTER TABLE user_tasks DROP COLUMN delegated_by_id;
ALTER TABLE user_tasks DROP COLUMN delegated_by_type;
ALTER TABLE user_tasks DROP COLUMN delegated_by_provider;

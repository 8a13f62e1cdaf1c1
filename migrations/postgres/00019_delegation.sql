-- Delegation (SPEC 10.5, issue 31): who delegated a task to its assignee. NULL unless the task
-- is delegated; a return, release or new assignment clears it, a completion keeps it (the
-- outcome is on behalf of the delegator).

-- +goose Up
ALTER TABLE user_tasks ADD COLUMN delegated_by_provider VARCHAR(64);
ALTER TABLE user_tasks ADD COLUMN delegated_by_type VARCHAR(8);
ALTER TABLE user_tasks ADD COLUMN delegated_by_id VARCHAR(255);
ALTER TABLE user_tasks ADD COLUMN delegated_by_display VARCHAR(256);

-- +goose Down
ALTER TABLE user_tasks DROP COLUMN delegated_by_display;
ALTER TABLE user_tasks DROP COLUMN delegated_by_id;
ALTER TABLE user_tasks DROP COLUMN delegated_by_type;
ALTER TABLE user_tasks DROP COLUMN delegated_by_provider;

-- The available list at the scale target (issue 13 item 5): the user's Available tasks were
-- found through the candidate index and then sorted, a quarter of the tenant's Available tasks
-- for a user in five groups. With one index (tenant_id, status, sort column, id) per sort the
-- list walks the Available tasks in the page's order, tests each for the user's candidate row,
-- and stops after the page (repository/task_query_available.go). Created and due already have
-- theirs (ix_tasks_status_created, 00007's ix_tasks_status_due). Four more indexes to maintain
-- on a change of status, and ix_tasks_status_updated on every write (ix_tasks_updated already
-- is); docs/query-plans.md weighs them.

-- +goose Up
CREATE INDEX ix_tasks_status_priority ON user_tasks (tenant_id, status, priority, id);
CREATE INDEX ix_tasks_status_title ON user_tasks (tenant_id, status, title, id);
CREATE INDEX ix_tasks_status_updated ON user_tasks (tenant_id, status, updated_at, id);
CREATE INDEX ix_tasks_status_completed ON user_tasks (tenant_id, status, completed_at, id);

-- +goose Down
DROP INDEX ix_tasks_status_completed ON user_tasks;
DROP INDEX ix_tasks_status_updated ON user_tasks;
DROP INDEX ix_tasks_status_title ON user_tasks;
DROP INDEX ix_tasks_status_priority ON user_tasks;

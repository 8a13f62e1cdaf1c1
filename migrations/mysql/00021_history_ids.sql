-- The history scope at the scale target (issue 27): every history page names the person's task
-- ids in a sub-select, a seek in ix_tasks_completed_by and one in ix_events_actor
-- (repository/task_query_history.go). ix_tasks_completed_by (tenant_id, completed_by_provider,
-- completed_by_type, completed_by_id) did not hold id where the table has a separate primary key
-- index, so SQLite read the table row of each task the person completed (3,037 for the bench's
-- user) just for its id. With id appended the sub-select reads the index alone (SQLite: the
-- history page 22 -> 16 ms of CPU, its capped total 12 -> 6 ms at the scale target;
-- docs/query-plans.md, "History"). PostgreSQL and Oracle (heap tables) can then answer the
-- sub-select from the index too; InnoDB's secondary indexes, and SQL Server's on its clustered
-- primary key, carry id already, so there it changes only the index's declared key: the schema
-- stays identical on every dialect (migrations/logical). Rebuilt under the same name.

-- +goose Up
DROP INDEX ix_tasks_completed_by ON user_tasks;
CREATE INDEX ix_tasks_completed_by ON user_tasks (tenant_id, completed_by_provider, completed_by_type, completed_by_id, id);

-- +goose Down
DROP INDEX ix_tasks_completed_by ON user_tasks;
CREATE INDEX ix_tasks_completed_by ON user_tasks (tenant_id, completed_by_provider, completed_by_type, completed_by_id);

-- The needs-attention list ordered by due date at the scale target (issue 10): the rule matches
-- most open tasks, so sorting every match took 324 ms (SQLite) and 557 ms (PostgreSQL). With
-- this index the list walks each open or transitional status in due order and stops after the
-- page (repository/task_query_due.go; figures in docs/benchmarks.md).

-- +goose Up
CREATE INDEX ix_tasks_status_due ON user_tasks (tenant_id, status, due_at, id);

-- +goose Down
DROP INDEX ix_tasks_status_due ON user_tasks;

-- The needs-attention list ordered by due date at the scale target (issue 10): the rule matches
-- most open tasks, so sorting every match took 324 ms (SQLite) and 557 ms (PostgreSQL). With
-- this index the list walks each open or transitional status in due order and stops after the
-- page (repository/task_query_due.go; figures in docs/benchmarks.md).
--
-- PostgreSQL only: statistics of the rule's columns taken together. Its planner multiplies the
-- selectivities of status, is_overdue, health and a missing assignee as if independent and
-- expected a few hundred matches where the rule matches most open tasks; it then gathered every
-- match through a BitmapOr and sorted it instead of walking an index and stopping after the page.

-- +goose Up
CREATE INDEX ix_tasks_status_due ON user_tasks (tenant_id, status, due_at, id);
CREATE STATISTICS st_tasks_attention (mcv) ON tenant_id, status, is_overdue, health_severity, (assignee_id IS NULL) FROM user_tasks;

-- +goose Down
DROP STATISTICS st_tasks_attention;
DROP INDEX ix_tasks_status_due;

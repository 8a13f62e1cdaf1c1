-- The workflow filter at the scale target (issue 27 item 2): the all and needs-attention lists
-- filtered by a workflow definition read its tasks through ix_tasks_definition and sorted them
-- all (14,283 rows at a tenth of the target), or walked the sort's index and skipped the other
-- definitions' tasks (PostgreSQL: seconds where titles follow the workflow). One index
-- (tenant_id, workflow_definition_id, status, sort column, id) per sort lets the list walk the
-- definition's tasks status by status in the page's order and stop after the page
-- (repository/task_query_due.go, statusPage), for both lists. Each starts with
-- ix_tasks_definition's columns, which is dropped. Five more indexes on balance, each rewritten
-- on a change of status, ix_tasks_workflow_updated on every write; docs/query-plans.md weighs them.

-- +goose Up
CREATE INDEX ix_tasks_workflow_created ON user_tasks (tenant_id, workflow_definition_id, status, created_at, id);
CREATE INDEX ix_tasks_workflow_due ON user_tasks (tenant_id, workflow_definition_id, status, due_at, id);
CREATE INDEX ix_tasks_workflow_priority ON user_tasks (tenant_id, workflow_definition_id, status, priority, id);
CREATE INDEX ix_tasks_workflow_title ON user_tasks (tenant_id, workflow_definition_id, status, title, id);
CREATE INDEX ix_tasks_workflow_updated ON user_tasks (tenant_id, workflow_definition_id, status, updated_at, id);
CREATE INDEX ix_tasks_workflow_completed ON user_tasks (tenant_id, workflow_definition_id, status, completed_at, id);
DROP INDEX ix_tasks_definition ON user_tasks;

-- +goose Down
CREATE INDEX ix_tasks_definition ON user_tasks (tenant_id, workflow_definition_id);
DROP INDEX ix_tasks_workflow_completed ON user_tasks;
DROP INDEX ix_tasks_workflow_updated ON user_tasks;
DROP INDEX ix_tasks_workflow_title ON user_tasks;
DROP INDEX ix_tasks_workflow_priority ON user_tasks;
DROP INDEX ix_tasks_workflow_due ON user_tasks;
DROP INDEX ix_tasks_workflow_created ON user_tasks;

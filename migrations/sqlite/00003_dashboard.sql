-- The managers' console (issue 10): worker runs kept in the database so every node sees them,
-- and a daily rollup so the dashboard's charts never read the task table's history.
--
-- user_task_worker_runs: one row per finished run of a background worker for one tenant
-- (reconciliation, due sweep, resumption outbox), or for every tenant at once (tenant_id '*':
-- timing and a safe error code only, never another tenant's counts). started_at and
-- finished_at are the database clock's; counts_json is a bounded JSON object of integer
-- counts. The store keeps the latest rows per (tenant, worker) and deletes older ones.
--
-- user_task_daily_stats: per tenant, UTC day (YYYY-MM-DD, database clock) and workflow
-- definition, how many tasks were created, claimed, completed (on time, late, without a due
-- date), timed out or cancelled; claims and completions by duration bucket (bucket is the
-- index of the upper bound in repository's duration buckets, so p50/p90 come from them).
-- Maintained in the same transaction as the change it counts: a rollback counts nothing, a
-- replay writes nothing.
--
-- ix_tasks_workload serves the dashboard's current counts from the open tasks alone: by status,
-- and the open tasks per assignee, without reading a tenant's terminal tasks.

-- +goose Up
CREATE TABLE user_task_worker_runs (
    id          VARCHAR(36)   NOT NULL PRIMARY KEY,
    worker      VARCHAR(32)   NOT NULL,
    tenant_id   VARCHAR(64)   NOT NULL,
    started_at  TIMESTAMP     NOT NULL,
    finished_at TIMESTAMP     NOT NULL,
    counts_json VARCHAR(1000) NOT NULL,
    error_code  VARCHAR(64)
);
CREATE INDEX ix_worker_runs_latest ON user_task_worker_runs (tenant_id, worker, started_at);

CREATE TABLE user_task_daily_stats (
    tenant_id                VARCHAR(64)  NOT NULL,
    stat_day                 VARCHAR(10)  NOT NULL,
    workflow_definition_id   VARCHAR(128) NOT NULL,
    metric                   VARCHAR(16)  NOT NULL,
    bucket                   INTEGER      NOT NULL,
    workflow_definition_name VARCHAR(256),
    event_count              BIGINT       NOT NULL,
    updated_at               TIMESTAMP    NOT NULL,
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket)
);

CREATE INDEX ix_tasks_workload ON user_tasks (tenant_id, status, assignee_provider, assignee_type, assignee_id);

-- +goose Down
DROP INDEX ix_tasks_workload;
DROP TABLE user_task_daily_stats;
DROP TABLE user_task_worker_runs;

-- Worker runs and the daily rollup: the logical tables of sqlite/00003_dashboard.sql
-- (stated in schema_want_test.go, checked by parity_test.go).

-- +goose Up
CREATE TABLE user_task_worker_runs (
    id          VARCHAR(36)                 NOT NULL,
    worker      VARCHAR(32)                 NOT NULL,
    tenant_id   VARCHAR(64)                 NOT NULL,
    started_at  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    finished_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    counts_json VARCHAR(1000)               NOT NULL,
    error_code  VARCHAR(64),
    CONSTRAINT pk_user_task_worker_runs PRIMARY KEY (id)
);
CREATE INDEX ix_worker_runs_latest ON user_task_worker_runs (tenant_id, worker, started_at);

CREATE TABLE user_task_daily_stats (
    tenant_id                VARCHAR(64)                 NOT NULL,
    stat_day                 VARCHAR(10)                 NOT NULL,
    workflow_definition_id   VARCHAR(128)                NOT NULL,
    metric                   VARCHAR(16)                 NOT NULL,
    bucket                   INTEGER                     NOT NULL,
    workflow_definition_name VARCHAR(256),
    event_count              BIGINT                      NOT NULL,
    updated_at               TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_daily_stats PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket)
);

CREATE INDEX ix_tasks_workload ON user_tasks (tenant_id, status, assignee_provider, assignee_type, assignee_id);

-- +goose Down
DROP INDEX ix_tasks_workload;
DROP TABLE user_task_daily_stats;
DROP TABLE user_task_worker_runs;

-- Worker runs and the daily rollup: the logical tables of sqlite/00003_dashboard.sql
-- (stated in schema_want_test.go, checked by parity_test.go against this text). NVARCHAR with
-- the binary collation, DATETIME2(6) in UTC, as in 00001. The rollup's clustered primary key
-- needs 440 of 900 bytes.

-- +goose Up
CREATE TABLE user_task_worker_runs (
    id          NVARCHAR(36) COLLATE Latin1_General_100_BIN2   NOT NULL,
    worker      NVARCHAR(32) COLLATE Latin1_General_100_BIN2   NOT NULL,
    tenant_id   NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    started_at  DATETIME2(6)                                   NOT NULL,
    finished_at DATETIME2(6)                                   NOT NULL,
    counts_json NVARCHAR(1000) COLLATE Latin1_General_100_BIN2 NOT NULL,
    error_code  NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    CONSTRAINT pk_user_task_worker_runs PRIMARY KEY (id)
);
CREATE INDEX ix_worker_runs_latest ON user_task_worker_runs (tenant_id, worker, started_at);

CREATE TABLE user_task_daily_stats (
    tenant_id                NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    stat_day                 NVARCHAR(10) COLLATE Latin1_General_100_BIN2  NOT NULL,
    workflow_definition_id   NVARCHAR(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    metric                   NVARCHAR(16) COLLATE Latin1_General_100_BIN2  NOT NULL,
    bucket                   INT                                           NOT NULL,
    workflow_definition_name NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    event_count              BIGINT                                        NOT NULL,
    updated_at               DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_daily_stats PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket)
);

CREATE INDEX ix_tasks_workload ON user_tasks (tenant_id, status, assignee_provider, assignee_type, assignee_id);

-- +goose Down
DROP INDEX ix_tasks_workload ON user_tasks;
DROP TABLE user_task_daily_stats;
DROP TABLE user_task_worker_runs;

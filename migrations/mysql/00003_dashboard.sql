-- Worker runs and the daily rollup: the logical tables of sqlite/00003_dashboard.sql
-- (stated in schema_want_test.go, checked by parity_test.go). InnoDB, utf8mb4 with the binary
-- collation like every table of 00001; the widest key (the rollup's primary key) needs 876 of
-- 3,072 bytes.

-- +goose Up
CREATE TABLE user_task_worker_runs (
    id          VARCHAR(36)   NOT NULL,
    worker      VARCHAR(32)   NOT NULL,
    tenant_id   VARCHAR(64)   NOT NULL,
    started_at  DATETIME(6)   NOT NULL,
    finished_at DATETIME(6)   NOT NULL,
    counts_json VARCHAR(1000) NOT NULL,
    error_code  VARCHAR(64),
    PRIMARY KEY (id),
    INDEX ix_worker_runs_latest (tenant_id, worker, started_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_daily_stats (
    tenant_id                VARCHAR(64)  NOT NULL,
    stat_day                 VARCHAR(10)  NOT NULL,
    workflow_definition_id   VARCHAR(128) NOT NULL,
    metric                   VARCHAR(16)  NOT NULL,
    bucket                   INT          NOT NULL,
    workflow_definition_name VARCHAR(256),
    event_count              BIGINT       NOT NULL,
    updated_at               DATETIME(6)  NOT NULL,
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX ix_tasks_workload ON user_tasks (tenant_id, status, assignee_provider, assignee_type, assignee_id);

-- +goose Down
DROP INDEX ix_tasks_workload ON user_tasks;
DROP TABLE user_task_daily_stats;
DROP TABLE user_task_worker_runs;

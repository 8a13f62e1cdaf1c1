-- Worker runs and the daily rollup: the logical tables of sqlite/00003_dashboard.sql
-- (stated in schema_want_test.go, checked by parity_test.go against this text). As in 00001: no
-- transaction (Oracle DDL commits implicitly), one statement per goose block without a trailing
-- semicolon, unquoted identifiers of at most 30 characters, VARCHAR2 lengths in characters,
-- NUMBER(10) / NUMBER(19) for INTEGER / BIGINT, TIMESTAMP(6) holding UTC. The all-tenants
-- marker is '*', never the empty string Oracle reads as NULL.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_worker_runs (
    id          VARCHAR2(36 CHAR)   NOT NULL,
    worker      VARCHAR2(32 CHAR)   NOT NULL,
    tenant_id   VARCHAR2(64 CHAR)   NOT NULL,
    started_at  TIMESTAMP(6)        NOT NULL,
    finished_at TIMESTAMP(6)        NOT NULL,
    counts_json VARCHAR2(1000 CHAR) NOT NULL,
    error_code  VARCHAR2(64 CHAR),
    CONSTRAINT pk_user_task_worker_runs PRIMARY KEY (id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_worker_runs_latest ON user_task_worker_runs (tenant_id, worker, started_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TABLE user_task_daily_stats (
    tenant_id                VARCHAR2(64 CHAR)  NOT NULL,
    stat_day                 VARCHAR2(10 CHAR)  NOT NULL,
    workflow_definition_id   VARCHAR2(128 CHAR) NOT NULL,
    metric                   VARCHAR2(16 CHAR)  NOT NULL,
    bucket                   NUMBER(10)         NOT NULL,
    workflow_definition_name VARCHAR2(256 CHAR),
    event_count              NUMBER(19)         NOT NULL,
    updated_at               TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_daily_stats PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_tasks_workload ON user_tasks (tenant_id, status, assignee_provider, assignee_type, assignee_id)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP INDEX ix_tasks_workload
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_daily_stats PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_worker_runs PURGE
-- +goose StatementEnd

-- The daily rollup counter in stripes (issue 13): every claim and every end of a task raised the
-- one user_task_daily_stats row of its tenant, day, workflow, metric and bucket, so all writers
-- of a tenant claiming in the same workflow on a day queued on that row lock for the rest of
-- their transaction. The stripe joins the primary key; a writer raises the stripe its task id
-- picks (repository/daily_stats.go), and the dashboard already sums the counters it reads, so
-- it sums over the stripes. Existing counters become stripe 0. The Down writes each counter's
-- sum over its stripes as stripe -1, deletes the stripes, then restores the old key.
-- Dropping the key drops its index too (DROP INDEX), so the new key can take its name.
-- As in 00001: no transaction, one statement per goose block without a trailing semicolon.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
ALTER TABLE user_task_daily_stats ADD stripe NUMBER(10) DEFAULT 0 NOT NULL
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_task_daily_stats DROP CONSTRAINT pk_user_task_daily_stats DROP INDEX
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_task_daily_stats ADD CONSTRAINT pk_user_task_daily_stats
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket, stripe)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
INSERT INTO user_task_daily_stats (tenant_id, stat_day, workflow_definition_id, metric, bucket, workflow_definition_name, event_count, updated_at, stripe)
    SELECT tenant_id, stat_day, workflow_definition_id, metric, bucket, MAX(workflow_definition_name), SUM(event_count), MAX(updated_at), -1
    FROM user_task_daily_stats GROUP BY tenant_id, stat_day, workflow_definition_id, metric, bucket
-- +goose StatementEnd
-- +goose StatementBegin
DELETE FROM user_task_daily_stats WHERE stripe <> -1
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_task_daily_stats DROP CONSTRAINT pk_user_task_daily_stats DROP INDEX
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_task_daily_stats DROP COLUMN stripe
-- +goose StatementEnd
-- +goose StatementBegin
ALTER TABLE user_task_daily_stats ADD CONSTRAINT pk_user_task_daily_stats
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket)
-- +goose StatementEnd

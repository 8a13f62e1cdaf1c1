-- The daily rollup counter in stripes (issue 13): every claim and every end of a task raised the
-- one user_task_daily_stats row of its tenant, day, workflow, metric and bucket, so all writers
-- of a tenant claiming in the same workflow on a day queued on that row lock for the rest of
-- their transaction. The stripe joins the primary key; a writer raises the stripe its task id
-- picks (repository/daily_stats.go), and the dashboard already sums the counters it reads, so
-- it sums over the stripes. Existing counters become stripe 0. The Down writes each counter's
-- sum over its stripes as stripe -1, deletes the stripes, then restores the old key.

-- +goose Up
ALTER TABLE user_task_daily_stats ADD stripe INT NOT NULL CONSTRAINT df_user_task_daily_stats_stripe DEFAULT 0;
ALTER TABLE user_task_daily_stats DROP CONSTRAINT pk_user_task_daily_stats;
ALTER TABLE user_task_daily_stats ADD CONSTRAINT pk_user_task_daily_stats
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket, stripe);

-- +goose Down
INSERT INTO user_task_daily_stats (tenant_id, stat_day, workflow_definition_id, metric, bucket, workflow_definition_name, event_count, updated_at, stripe)
    SELECT tenant_id, stat_day, workflow_definition_id, metric, bucket, MAX(workflow_definition_name), SUM(event_count), MAX(updated_at), -1
    FROM user_task_daily_stats GROUP BY tenant_id, stat_day, workflow_definition_id, metric, bucket;
DELETE FROM user_task_daily_stats WHERE stripe <> -1;
ALTER TABLE user_task_daily_stats DROP CONSTRAINT pk_user_task_daily_stats;
ALTER TABLE user_task_daily_stats DROP CONSTRAINT df_user_task_daily_stats_stripe;
ALTER TABLE user_task_daily_stats DROP COLUMN stripe;
ALTER TABLE user_task_daily_stats ADD CONSTRAINT pk_user_task_daily_stats
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket);

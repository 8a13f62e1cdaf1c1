-- The daily rollup counter in stripes (issue 13): every claim and every end of a task raised the
-- one user_task_daily_stats row of its tenant, day, workflow, metric and bucket, so all writers
-- of a tenant claiming in the same workflow on a day queued on that row lock for the rest of
-- their transaction. The stripe joins the primary key; a writer raises the stripe its task id
-- picks (repository/daily_stats.go), and the dashboard already sums the counters it reads, so
-- it sums over the stripes. Existing counters become stripe 0. The Down adds each counter's
-- stripes back into one row.
-- SQLite cannot change a primary key in place: the table is copied into a new one with the new
-- key, and ix_daily_stats_read (00006), dropped with the old table, is made again. SQLite has one
-- writer at a time, so the store uses only stripe 0 here.

-- +goose Up
CREATE TABLE user_task_daily_stats_new (
    tenant_id                VARCHAR(64)  NOT NULL,
    stat_day                 VARCHAR(10)  NOT NULL,
    workflow_definition_id   VARCHAR(128) NOT NULL,
    metric                   VARCHAR(16)  NOT NULL,
    bucket                   INTEGER      NOT NULL,
    workflow_definition_name VARCHAR(256),
    event_count              BIGINT       NOT NULL,
    updated_at               TIMESTAMP    NOT NULL,
    stripe                   INTEGER      NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, stat_day, workflow_definition_id, metric, bucket, stripe)
);
INSERT INTO user_task_daily_stats_new (tenant_id, stat_day, workflow_definition_id, metric, bucket, workflow_definition_name, event_count, updated_at, stripe)
    SELECT tenant_id, stat_day, workflow_definition_id, metric, bucket, workflow_definition_name, event_count, updated_at, 0 FROM user_task_daily_stats;
DROP TABLE user_task_daily_stats;
ALTER TABLE user_task_daily_stats_new RENAME TO user_task_daily_stats;
CREATE INDEX ix_daily_stats_read ON user_task_daily_stats (tenant_id, stat_day, workflow_definition_id, metric, bucket, event_count, workflow_definition_name);

-- +goose Down
CREATE TABLE user_task_daily_stats_old (
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
INSERT INTO user_task_daily_stats_old (tenant_id, stat_day, workflow_definition_id, metric, bucket, workflow_definition_name, event_count, updated_at)
    SELECT tenant_id, stat_day, workflow_definition_id, metric, bucket, MAX(workflow_definition_name), SUM(event_count), MAX(updated_at)
    FROM user_task_daily_stats GROUP BY tenant_id, stat_day, workflow_definition_id, metric, bucket;
DROP TABLE user_task_daily_stats;
ALTER TABLE user_task_daily_stats_old RENAME TO user_task_daily_stats;
CREATE INDEX ix_daily_stats_read ON user_task_daily_stats (tenant_id, stat_day, workflow_definition_id, metric, bucket, event_count, workflow_definition_name);

-- The dashboard at the scale target (issue 10): the 30-day read of the daily rollup returns
-- every counter of a month (tens of thousands of rows at 1,100,000 tasks per tenant). This index
-- holds what the read selects, so it is served from the index alone in key order instead of one
-- table lookup per counter (SQLite measured 116 ms for the lookups; see docs/benchmarks.md).

-- +goose Up
CREATE INDEX ix_daily_stats_read ON user_task_daily_stats (tenant_id, stat_day, workflow_definition_id, metric, bucket, event_count, workflow_definition_name);

-- +goose Down
DROP INDEX ix_daily_stats_read ON user_task_daily_stats;

-- Scenario "has-acted": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT "id" FROM "user_task_events" WHERE tenant_id = @p1 AND actor_provider = @p2 AND actor_type = @p3 AND actor_id = @p4 AND task_id = @p5 ORDER BY seq OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x5
ROLLBACK

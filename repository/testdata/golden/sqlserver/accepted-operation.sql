-- Scenario "accepted-operation": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_operations" WHERE tenant_id = @p1 AND task_id = @p2 AND state = @p3 AND kind IN (@p4,@p5,@p6) ORDER BY created_at DESC, id DESC OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x6
ROLLBACK

-- Scenario "operation": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_operations" WHERE tenant_id = @p1 AND task_id = @p2 AND operation_id = @p3 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
ROLLBACK

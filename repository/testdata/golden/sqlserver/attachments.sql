-- Scenario "attachments": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_attachments" WHERE tenant_id = @p1 AND task_id = @p2 AND created_at IS NOT NULL ORDER BY created_at, id OFFSET 0 ROW FETCH NEXT 40 ROWS ONLY
--   binds: string x2
ROLLBACK

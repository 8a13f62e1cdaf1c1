-- Scenario "managers": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_people" WHERE tenant_id = @p1 AND manager = @p2 ORDER BY user_id, provider OFFSET 0 ROW FETCH NEXT 100 ROWS ONLY
--   binds: string, bool
ROLLBACK

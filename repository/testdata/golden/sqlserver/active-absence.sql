-- Scenario "active-absence": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_absences" WHERE tenant_id = @p1 AND user_provider = @p2 AND user_type = @p3 AND user_id = @p4 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x4
ROLLBACK

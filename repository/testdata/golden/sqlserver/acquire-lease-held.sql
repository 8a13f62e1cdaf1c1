-- Scenario "acquire-lease-held": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_leases" WHERE lease_name = @p1 ORDER BY "lease_name" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
ROLLBACK

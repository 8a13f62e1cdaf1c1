-- Scenario "create-capacity-exceeded": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_tenants" WHERE tenant_id = @p1
--   binds: string
COMMIT
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id" FROM "user_tasks" WHERE tenant_id = @p1 AND (materialization_key = @p2 OR bookmark_id = @p3) ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
UPDATE "user_task_tenants" SET "open_tasks"=open_tasks + 1,"updated_at"=@p1 WHERE tenant_id = @p2 AND open_tasks < @p3
--   binds: time.Time, string, int
SELECT count(*) FROM "user_task_tenants" WHERE tenant_id = @p1
--   binds: string
ROLLBACK

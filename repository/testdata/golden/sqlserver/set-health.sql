-- Scenario "set-health": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "health_code"=@p1,"health_message"=@p2,"health_severity"=@p3 WHERE tenant_id = @p4 AND id = @p5 AND status IN (@p6,@p7,@p8,@p9,@p10,@p11) AND (health_severity IS NULL OR health_severity <> @p12)
--   binds: string x12
SELECT "revision" FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
COMMIT

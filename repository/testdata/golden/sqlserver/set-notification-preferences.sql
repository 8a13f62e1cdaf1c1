-- Scenario "set-notification-preferences": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_people" WHERE tenant_id = @p1 AND provider = @p2 AND user_id = @p3 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
UPDATE "user_task_people" SET "digest"=@p1,"email_prefs"=@p2,"updated_at"=@p3 WHERE tenant_id = @p4 AND provider = @p5 AND user_id = @p6
--   binds: string x2, time.Time, string x3
COMMIT

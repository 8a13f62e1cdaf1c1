-- Scenario "end-subject-web-sessions": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_web_sessions" WHERE tenant_id = @p1 AND subject_provider = @p2 AND subject_id = @p3
--   binds: string x3
DELETE FROM "user_task_web_sessions" WHERE tenant_id = @p1 AND subject_provider = @p2 AND subject_id = @p3
--   binds: string x3
COMMIT

-- Scenario "purge-web-sessions": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
DELETE FROM "user_task_web_sessions" WHERE expires_at <= @p1
--   binds: time.Time
DELETE FROM "user_task_web_sessions" WHERE idle_expires_at <= @p1
--   binds: time.Time
COMMIT

-- Scenario "set-web-session-time-zone": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_web_sessions" SET "time_zone"=@p1 WHERE id_hash = @p2 AND expires_at > @p3 AND idle_expires_at > @p4
--   binds: string x2, time.Time x2
COMMIT

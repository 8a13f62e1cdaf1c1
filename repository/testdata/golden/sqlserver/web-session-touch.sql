-- Scenario "web-session-touch": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_web_sessions" WHERE id_hash = @p1 AND expires_at > @p2 AND idle_expires_at > @p3 ORDER BY "id_hash" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string, time.Time x2
ROLLBACK
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_web_sessions" SET "idle_expires_at"=@p1,"last_seen_at"=@p2 WHERE (id_hash = @p3 AND expires_at > @p4 AND idle_expires_at > @p5) AND last_seen_at <= @p6
--   binds: time.Time x2, string, time.Time x3
COMMIT

-- Scenario "set-web-session-time-zone": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_web_sessions SET time_zone=:1 WHERE id_hash = :2 AND expires_at > :3 AND idle_expires_at > :4
--   binds: string x2, time.Time x2
COMMIT

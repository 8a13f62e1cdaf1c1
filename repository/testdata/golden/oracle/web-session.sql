-- Scenario "web-session": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_web_sessions WHERE id_hash = :1 AND expires_at > :2 AND idle_expires_at > :3 ORDER BY id_hash  FETCH NEXT :4 ROWS ONLY
--   binds: string, time.Time x2, int
ROLLBACK

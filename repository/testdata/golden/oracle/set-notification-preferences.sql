-- Scenario "set-notification-preferences": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_people WHERE tenant_id = :1 AND provider = :2 AND user_id = :3 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
UPDATE user_task_people SET digest=:1,email_prefs=:2,updated_at=:3 WHERE tenant_id = :4 AND provider = :5 AND user_id = :6
--   binds: string x2, time.Time, string x3
COMMIT

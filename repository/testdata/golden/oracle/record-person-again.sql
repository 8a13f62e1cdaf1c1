-- Scenario "record-person-again": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_people WHERE tenant_id = :1 AND provider = :2 AND user_id = :3 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
UPDATE user_task_people SET display_name=:1,email=:2,language=:3,manager=:4,seen_at=:5,time_zone=:6,updated_at=:7 WHERE tenant_id = :8 AND provider = :9 AND user_id = :10
--   binds: string, NULL x2, int, time.Time, NULL, time.Time, string x3
COMMIT

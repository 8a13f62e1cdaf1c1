-- Scenario "put-absence-replace": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_absences WHERE tenant_id = :1 AND user_provider = :2 AND user_type = :3 AND user_id = :4 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :5 ROWS ONLY
--   binds: string x4, int
UPDATE user_task_absences SET ends_at=:1,starts_at=:2,substitute_display=:3,substitute_id=:4,substitute_provider=:5,substitute_type=:6,updated_at=:7 WHERE tenant_id = :8 AND user_provider = :9 AND user_type = :10 AND user_id = :11
--   binds: time.Time x2, string x4, time.Time, string x4
COMMIT

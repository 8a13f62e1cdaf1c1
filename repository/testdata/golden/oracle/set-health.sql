-- Scenario "set-health": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET health_code=:1,health_message=:2,health_severity=:3 WHERE tenant_id = :4 AND id = :5 AND status IN (:6,:7,:8,:9,:10,:11) AND (health_severity IS NULL OR health_severity <> :12)
--   binds: string x12
SELECT revision FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
COMMIT

-- Scenario "put-absence-new": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_absences WHERE tenant_id = :1 AND user_provider = :2 AND user_type = :3 AND user_id = :4 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :5 ROWS ONLY
--   binds: string x4, int
INSERT INTO user_task_absences (tenant_id,user_provider,user_type,user_id,starts_at,ends_at,substitute_provider,substitute_type,substitute_id,substitute_display,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12)
--   binds: string x4, time.Time x2, string x4, time.Time x2
COMMIT

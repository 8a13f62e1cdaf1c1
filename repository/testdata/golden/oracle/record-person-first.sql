-- Scenario "record-person-first": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_people WHERE tenant_id = :1 AND provider = :2 AND user_id = :3 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
INSERT INTO user_task_people (tenant_id,provider,user_id,display_name,email,language,time_zone,manager,seen_at,email_prefs,digest,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13)
--   binds: string x7, int, time.Time, NULL x2, time.Time x2
COMMIT

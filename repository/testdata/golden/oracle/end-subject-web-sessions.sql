-- Scenario "end-subject-web-sessions": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_web_sessions WHERE tenant_id = :1 AND subject_provider = :2 AND subject_id = :3
--   binds: string x3
DELETE FROM user_task_web_sessions WHERE tenant_id = :1 AND subject_provider = :2 AND subject_id = :3
--   binds: string x3
COMMIT

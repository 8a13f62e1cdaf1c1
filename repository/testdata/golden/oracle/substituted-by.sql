-- Scenario "substituted-by": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_absences WHERE tenant_id = :1 AND substitute_provider = :2 AND substitute_type = :3 AND substitute_id = :4 AND ends_at > :5 ORDER BY user_provider, user_id
--   binds: string x4, time.Time
ROLLBACK

-- Scenario "delete-absence": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
DELETE FROM user_task_absences WHERE tenant_id = :1 AND user_provider = :2 AND user_type = :3 AND user_id = :4
--   binds: string x4
COMMIT

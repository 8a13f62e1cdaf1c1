-- Scenario "absence": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_absences WHERE tenant_id = :1 AND user_provider = :2 AND user_type = :3 AND user_id = :4 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :5 ROWS ONLY
--   binds: string x4, int
ROLLBACK

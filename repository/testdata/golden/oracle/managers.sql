-- Scenario "managers": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_people WHERE tenant_id = :1 AND manager = :2 ORDER BY user_id, provider  FETCH NEXT :3 ROWS ONLY
--   binds: string, bool, int
ROLLBACK

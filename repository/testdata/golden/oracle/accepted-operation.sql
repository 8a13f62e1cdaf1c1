-- Scenario "accepted-operation": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_operations WHERE tenant_id = :1 AND task_id = :2 AND state = :3 AND kind IN (:4,:5,:6) ORDER BY created_at DESC, id DESC  FETCH NEXT :7 ROWS ONLY
--   binds: string x6, int
ROLLBACK

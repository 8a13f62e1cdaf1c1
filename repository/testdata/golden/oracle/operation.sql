-- Scenario "operation": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_operations WHERE tenant_id = :1 AND task_id = :2 AND operation_id = :3 ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
ROLLBACK

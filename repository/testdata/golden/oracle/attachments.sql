-- Scenario "attachments": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_attachments WHERE tenant_id = :1 AND task_id = :2 AND created_at IS NOT NULL ORDER BY created_at, id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
ROLLBACK

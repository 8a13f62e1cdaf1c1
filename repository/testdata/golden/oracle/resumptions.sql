-- Scenario "resumptions": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_resumptions WHERE tenant_id = :1 AND task_id = :2 ORDER BY created_at, id
--   binds: string x2
ROLLBACK

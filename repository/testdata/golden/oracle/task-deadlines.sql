-- Scenario "task-deadlines": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_deadlines WHERE task_id = :1 AND tenant_id = :2 ORDER BY idx
--   binds: string x2
ROLLBACK

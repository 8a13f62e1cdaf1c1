-- Scenario "events": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_events WHERE tenant_id = :1 AND task_id = :2 AND seq > :3 ORDER BY seq  FETCH NEXT :4 ROWS ONLY
--   binds: string x2, int x2
ROLLBACK

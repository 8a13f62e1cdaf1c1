-- Scenario "has-acted": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT id FROM user_task_events WHERE tenant_id = :1 AND actor_provider = :2 AND actor_type = :3 AND actor_id = :4 AND task_id = :5 ORDER BY seq  FETCH NEXT :6 ROWS ONLY
--   binds: string x5, int
ROLLBACK

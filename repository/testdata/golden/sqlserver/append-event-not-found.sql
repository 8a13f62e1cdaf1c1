-- Scenario "append-event-not-found": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
ROLLBACK

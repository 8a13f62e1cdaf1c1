-- Scenario "purge-terminal-page": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_tasks"."id" FROM "user_tasks" WHERE user_tasks.tenant_id = @p1 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p2 AND user_tasks.status IN (@p3,@p4,@p5) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p6) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p7) ORDER BY user_tasks.completed_at, user_tasks.id OFFSET 0 ROW FETCH NEXT 2 ROWS ONLY
--   binds: string, time.Time, string x5
DELETE FROM user_task_notifications WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_comments WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_attachment_chunks WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_attachments WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_guest_sessions WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_deliveries WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_invitations WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_resumptions WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_operations WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_events WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_exclusions WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_candidates WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_task_tags WHERE tenant_id = @p1 AND task_id IN (@p2)
--   binds: string x2
DELETE FROM user_tasks WHERE tenant_id = @p1 AND id IN (@p2)
--   binds: string x2
COMMIT

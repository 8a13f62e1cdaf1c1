-- Scenario "purge-terminal-page": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :1 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :2 AND user_tasks.status IN (:3,:4,:5) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :6) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :7) ORDER BY user_tasks.completed_at, user_tasks.id  FETCH NEXT :8 ROWS ONLY
--   binds: string, time.Time, string x5, int
DELETE FROM user_task_notifications WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_comments WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_attachment_chunks WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_attachments WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_guest_sessions WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_deliveries WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_invitations WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_resumptions WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_operations WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_events WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_exclusions WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_candidates WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_task_tags WHERE tenant_id = :1 AND task_id IN (:2)
--   binds: string x2
DELETE FROM user_tasks WHERE tenant_id = :1 AND id IN (:2)
--   binds: string x2
COMMIT

-- Scenario "purge-nothing-due": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_tasks"."id" FROM "user_tasks" WHERE user_tasks.tenant_id = @p1 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p2 AND user_tasks.status IN (@p3,@p4,@p5) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p6) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p7) ORDER BY user_tasks.completed_at, user_tasks.id OFFSET 0 ROW FETCH NEXT 500 ROWS ONLY
--   binds: string, time.Time, string x5
COMMIT
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_task_invitations"."id" FROM "user_task_invitations" WHERE user_task_invitations.tenant_id = @p1 AND ((user_task_invitations.status IN (@p2,@p3) AND user_task_invitations.updated_at <= @p4) OR (user_task_invitations.status IN (@p5,@p6) AND user_task_invitations.expires_at <= @p7)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = @p8 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > @p9) AND NOT EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_invitations.task_id AND t.assignee_provider = @p10 AND t.status IN (@p11,@p12,@p13,@p14,@p15,@p16)) ORDER BY user_task_invitations.id OFFSET 0 ROW FETCH NEXT 500 ROWS ONLY
--   binds: string x3, time.Time, string x2, time.Time, string, time.Time, string x7
COMMIT
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_task_guest_sessions"."id" FROM "user_task_guest_sessions" WHERE user_task_guest_sessions.tenant_id = @p1 AND (user_task_guest_sessions.expires_at <= @p2 OR user_task_guest_sessions.revoked_at <= @p3) ORDER BY user_task_guest_sessions.id OFFSET 0 ROW FETCH NEXT 500 ROWS ONLY
--   binds: string, time.Time x2
COMMIT
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_task_deliveries"."id" FROM "user_task_deliveries" WHERE user_task_deliveries.tenant_id = @p1 AND user_task_deliveries.state IN (@p2,@p3,@p4) AND user_task_deliveries.updated_at <= @p5 ORDER BY user_task_deliveries.id OFFSET 0 ROW FETCH NEXT 500 ROWS ONLY
--   binds: string x4, time.Time
COMMIT
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_task_resumptions"."id" FROM "user_task_resumptions" WHERE user_task_resumptions.tenant_id = @p1 AND user_task_resumptions.state IN (@p2,@p3,@p4) AND user_task_resumptions.updated_at <= @p5 AND EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.status IN (@p6,@p7,@p8)) ORDER BY user_task_resumptions.id OFFSET 0 ROW FETCH NEXT 500 ROWS ONLY
--   binds: string x4, time.Time, string x3
COMMIT

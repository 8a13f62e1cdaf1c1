-- Scenario "purge-dry-run": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_guest_sessions" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_deliveries" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_invitations" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_resumptions" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_operations" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_events" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_exclusions" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_candidates" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_task_tags" WHERE tenant_id = @p1 AND task_id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM "user_tasks" WHERE tenant_id = @p1 AND id IN (SELECT user_tasks.id FROM "user_tasks" WHERE user_tasks.tenant_id = @p2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= @p3 AND user_tasks.status IN (@p4,@p5,@p6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = @p7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = @p8))
--   binds: string x2, time.Time, string x5
ROLLBACK
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_guest_sessions" WHERE tenant_id = @p1 AND invitation_id IN (SELECT user_task_invitations.id FROM "user_task_invitations" WHERE user_task_invitations.tenant_id = @p2 AND ((user_task_invitations.status IN (@p3,@p4) AND user_task_invitations.updated_at <= @p5) OR (user_task_invitations.status IN (@p6,@p7) AND user_task_invitations.expires_at <= @p8)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = @p9 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > @p10))
--   binds: string x4, time.Time, string x2, time.Time, string, time.Time
SELECT count(*) FROM "user_task_deliveries" WHERE tenant_id = @p1 AND invitation_id IN (SELECT user_task_invitations.id FROM "user_task_invitations" WHERE user_task_invitations.tenant_id = @p2 AND ((user_task_invitations.status IN (@p3,@p4) AND user_task_invitations.updated_at <= @p5) OR (user_task_invitations.status IN (@p6,@p7) AND user_task_invitations.expires_at <= @p8)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = @p9 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > @p10))
--   binds: string x4, time.Time, string x2, time.Time, string, time.Time
SELECT count(*) FROM "user_task_invitations" WHERE tenant_id = @p1 AND id IN (SELECT user_task_invitations.id FROM "user_task_invitations" WHERE user_task_invitations.tenant_id = @p2 AND ((user_task_invitations.status IN (@p3,@p4) AND user_task_invitations.updated_at <= @p5) OR (user_task_invitations.status IN (@p6,@p7) AND user_task_invitations.expires_at <= @p8)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = @p9 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > @p10))
--   binds: string x4, time.Time, string x2, time.Time, string, time.Time
ROLLBACK
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_guest_sessions" WHERE tenant_id = @p1 AND id IN (SELECT user_task_guest_sessions.id FROM "user_task_guest_sessions" WHERE user_task_guest_sessions.tenant_id = @p2 AND (user_task_guest_sessions.expires_at <= @p3 OR user_task_guest_sessions.revoked_at <= @p4))
--   binds: string x2, time.Time x2
ROLLBACK
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_deliveries" WHERE tenant_id = @p1 AND id IN (SELECT user_task_deliveries.id FROM "user_task_deliveries" WHERE user_task_deliveries.tenant_id = @p2 AND user_task_deliveries.state IN (@p3,@p4,@p5) AND user_task_deliveries.updated_at <= @p6)
--   binds: string x5, time.Time
ROLLBACK
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_resumptions" WHERE tenant_id = @p1 AND id IN (SELECT user_task_resumptions.id FROM "user_task_resumptions" WHERE user_task_resumptions.tenant_id = @p2 AND user_task_resumptions.state IN (@p3,@p4,@p5) AND user_task_resumptions.updated_at <= @p6 AND EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.status IN (@p7,@p8,@p9)))
--   binds: string x5, time.Time, string x3
ROLLBACK

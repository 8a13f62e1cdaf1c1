-- Scenario "purge-dry-run": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_guest_sessions WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_deliveries WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_invitations WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_resumptions WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_operations WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_events WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_exclusions WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_candidates WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_task_tags WHERE tenant_id = :1 AND task_id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
SELECT count(*) FROM user_tasks WHERE tenant_id = :1 AND id IN (SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :2 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :3 AND user_tasks.status IN (:4,:5,:6) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :7) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :8))
--   binds: string x2, time.Time, string x5
ROLLBACK
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_guest_sessions WHERE tenant_id = :1 AND invitation_id IN (SELECT user_task_invitations.id FROM user_task_invitations WHERE user_task_invitations.tenant_id = :2 AND ((user_task_invitations.status IN (:3,:4) AND user_task_invitations.updated_at <= :5) OR (user_task_invitations.status IN (:6,:7) AND user_task_invitations.expires_at <= :8)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = :9 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > :10) AND NOT EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_invitations.task_id AND t.assignee_provider = :11 AND t.status IN (:12,:13,:14,:15,:16,:17)))
--   binds: string x4, time.Time, string x2, time.Time, string, time.Time, string x7
SELECT count(*) FROM user_task_deliveries WHERE tenant_id = :1 AND invitation_id IN (SELECT user_task_invitations.id FROM user_task_invitations WHERE user_task_invitations.tenant_id = :2 AND ((user_task_invitations.status IN (:3,:4) AND user_task_invitations.updated_at <= :5) OR (user_task_invitations.status IN (:6,:7) AND user_task_invitations.expires_at <= :8)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = :9 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > :10) AND NOT EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_invitations.task_id AND t.assignee_provider = :11 AND t.status IN (:12,:13,:14,:15,:16,:17)))
--   binds: string x4, time.Time, string x2, time.Time, string, time.Time, string x7
SELECT count(*) FROM user_task_invitations WHERE tenant_id = :1 AND id IN (SELECT user_task_invitations.id FROM user_task_invitations WHERE user_task_invitations.tenant_id = :2 AND ((user_task_invitations.status IN (:3,:4) AND user_task_invitations.updated_at <= :5) OR (user_task_invitations.status IN (:6,:7) AND user_task_invitations.expires_at <= :8)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = :9 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > :10) AND NOT EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_invitations.task_id AND t.assignee_provider = :11 AND t.status IN (:12,:13,:14,:15,:16,:17)))
--   binds: string x4, time.Time, string x2, time.Time, string, time.Time, string x7
ROLLBACK
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_guest_sessions WHERE tenant_id = :1 AND id IN (SELECT user_task_guest_sessions.id FROM user_task_guest_sessions WHERE user_task_guest_sessions.tenant_id = :2 AND (user_task_guest_sessions.expires_at <= :3 OR user_task_guest_sessions.revoked_at <= :4))
--   binds: string x2, time.Time x2
ROLLBACK
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_deliveries WHERE tenant_id = :1 AND id IN (SELECT user_task_deliveries.id FROM user_task_deliveries WHERE user_task_deliveries.tenant_id = :2 AND user_task_deliveries.state IN (:3,:4,:5) AND user_task_deliveries.updated_at <= :6)
--   binds: string x5, time.Time
ROLLBACK
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_resumptions WHERE tenant_id = :1 AND id IN (SELECT user_task_resumptions.id FROM user_task_resumptions WHERE user_task_resumptions.tenant_id = :2 AND user_task_resumptions.state IN (:3,:4,:5) AND user_task_resumptions.updated_at <= :6 AND EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.status IN (:7,:8,:9)))
--   binds: string x5, time.Time, string x3
ROLLBACK

-- Scenario "purge-nothing-due": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_tasks.id FROM user_tasks WHERE user_tasks.tenant_id = :1 AND user_tasks.completed_at IS NOT NULL AND user_tasks.completed_at <= :2 AND user_tasks.status IN (:3,:4,:5) AND user_tasks.health_severity IS NULL AND user_tasks.health_code IS NULL AND NOT EXISTS (SELECT 1 FROM user_task_operations o WHERE o.task_id = user_tasks.id AND o.state = :6) AND NOT EXISTS (SELECT 1 FROM user_task_resumptions r WHERE r.task_id = user_tasks.id AND r.state = :7) ORDER BY user_tasks.completed_at, user_tasks.id  FETCH NEXT :8 ROWS ONLY
--   binds: string, time.Time, string x5, int
COMMIT
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_task_invitations.id FROM user_task_invitations WHERE user_task_invitations.tenant_id = :1 AND ((user_task_invitations.status IN (:2,:3) AND user_task_invitations.updated_at <= :4) OR (user_task_invitations.status IN (:5,:6) AND user_task_invitations.expires_at <= :7)) AND NOT EXISTS (SELECT 1 FROM user_task_deliveries d WHERE d.invitation_id = user_task_invitations.id AND d.state = :8 AND d.lease_expires_at IS NOT NULL AND d.lease_expires_at > :9) AND NOT EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_invitations.task_id AND t.assignee_provider = :10 AND t.status IN (:11,:12,:13,:14,:15,:16)) ORDER BY user_task_invitations.id  FETCH NEXT :17 ROWS ONLY
--   binds: string x3, time.Time, string x2, time.Time, string, time.Time, string x7, int
COMMIT
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_task_guest_sessions.id FROM user_task_guest_sessions WHERE user_task_guest_sessions.tenant_id = :1 AND (user_task_guest_sessions.expires_at <= :2 OR user_task_guest_sessions.revoked_at <= :3) ORDER BY user_task_guest_sessions.id  FETCH NEXT :4 ROWS ONLY
--   binds: string, time.Time x2, int
COMMIT
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_task_deliveries.id FROM user_task_deliveries WHERE user_task_deliveries.tenant_id = :1 AND user_task_deliveries.state IN (:2,:3,:4) AND user_task_deliveries.updated_at <= :5 ORDER BY user_task_deliveries.id  FETCH NEXT :6 ROWS ONLY
--   binds: string x4, time.Time, int
COMMIT
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_task_resumptions.id FROM user_task_resumptions WHERE user_task_resumptions.tenant_id = :1 AND user_task_resumptions.state IN (:2,:3,:4) AND user_task_resumptions.updated_at <= :5 AND EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.status IN (:6,:7,:8)) ORDER BY user_task_resumptions.id  FETCH NEXT :9 ROWS ONLY
--   binds: string x4, time.Time, string x3, int
COMMIT

-- Scenario "expire-invitations": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id,tenant_id FROM user_task_invitations WHERE status IN (:1,:2) AND expires_at <= :3 ORDER BY expires_at, id  FETCH NEXT :4 ROWS ONLY
--   binds: string x2, time.Time, int
UPDATE user_task_invitations SET status=:1,updated_at=:2 WHERE tenant_id = :3 AND id IN (:4,:5) AND status IN (:6,:7) AND expires_at <= :8
--   binds: string, time.Time, string x5, time.Time
UPDATE user_task_deliveries SET last_error=:1,lease_expires_at=:2,lease_owner=:3,lease_token=:4,state=:5,updated_at=:6 WHERE tenant_id = :7 AND invitation_id IN (:8,:9) AND state = :10 AND (lease_expires_at IS NULL OR lease_expires_at <= :11)
--   binds: string, NULL x3, string, time.Time, string x4, time.Time
COMMIT

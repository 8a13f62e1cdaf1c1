-- Scenario "consume-invitation": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_invitations SET consumed_at=:1,status=:2,updated_at=:3 WHERE tenant_id = :4 AND id = :5 AND status = :6
--   binds: time.Time, string, time.Time, string x3
UPDATE user_task_guest_sessions SET revoked_at=:1 WHERE tenant_id = :2 AND invitation_id = :3 AND revoked_at IS NULL
--   binds: time.Time, string x2
COMMIT

-- Scenario "revoke-invitation-not-revocable": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT * FROM user_task_invitations WHERE tenant_id = :1 AND task_id = :2 AND id = :3 ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
UPDATE user_task_invitations SET revoked_at=:1,status=:2,updated_at=:3 WHERE tenant_id = :4 AND id = :5 AND status IN (:6,:7,:8)
--   binds: time.Time, string, time.Time, string x5
ROLLBACK

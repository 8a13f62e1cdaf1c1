-- Scenario "issue-invitation-limit-reached": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT count(*) FROM user_task_invitations WHERE tenant_id = :1 AND task_id = :2
--   binds: string x2
ROLLBACK

-- Scenario "expire-invitations-none": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id,tenant_id FROM user_task_invitations WHERE status IN (:1,:2) AND expires_at <= :3 ORDER BY expires_at, id  FETCH NEXT :4 ROWS ONLY
--   binds: string x2, time.Time, int
COMMIT

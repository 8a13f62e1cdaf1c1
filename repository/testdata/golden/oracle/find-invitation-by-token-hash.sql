-- Scenario "find-invitation-by-token-hash": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_invitations WHERE token_hash = :1 ORDER BY id  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
ROLLBACK

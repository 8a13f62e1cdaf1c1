-- Scenario "find-invitation-by-token-hash": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_invitations" WHERE token_hash = @p1 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
ROLLBACK

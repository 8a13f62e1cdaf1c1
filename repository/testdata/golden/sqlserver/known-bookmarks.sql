-- Scenario "known-bookmarks": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT "bookmark_id" FROM "user_tasks" WHERE tenant_id = @p1 AND bookmark_id IN (@p2,@p3)
--   binds: string x3
ROLLBACK

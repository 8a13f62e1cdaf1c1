-- Scenario "rekey-comments-page": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT id,tenant_id,task_id,body_enc FROM "user_task_comments" ORDER BY id OFFSET 0 ROW FETCH NEXT 2 ROWS ONLY
UPDATE "user_task_comments" SET "body_enc"=@p1 WHERE id = @p2 AND body_enc = @p3
--   binds: string x3
COMMIT

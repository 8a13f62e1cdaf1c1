-- Scenario "rekey-page": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT id,instructions_enc,task_data_enc,form_enc,invitation_defs_enc,completion_data_enc FROM "user_tasks" WHERE id > @p1 ORDER BY id OFFSET 0 ROW FETCH NEXT 2 ROWS ONLY
--   binds: string
UPDATE "user_tasks" SET "instructions_enc"=@p1 WHERE id = @p2 AND instructions_enc = @p3
--   binds: string x3
UPDATE "user_tasks" SET "task_data_enc"=@p1 WHERE id = @p2 AND task_data_enc = @p3
--   binds: string x3
COMMIT

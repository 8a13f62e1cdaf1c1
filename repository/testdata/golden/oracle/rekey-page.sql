-- Scenario "rekey-page": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id,instructions_enc,task_data_enc,form_enc,invitation_defs_enc,completion_data_enc FROM user_tasks WHERE id > :1 ORDER BY id  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
UPDATE user_tasks SET instructions_enc=:1 WHERE id = :2 AND DBMS_LOB.COMPARE(instructions_enc, :3) = 0
--   binds: string x3
UPDATE user_tasks SET task_data_enc=:1 WHERE id = :2 AND DBMS_LOB.COMPARE(task_data_enc, :3) = 0
--   binds: string x3
COMMIT

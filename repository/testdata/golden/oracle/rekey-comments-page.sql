-- Scenario "rekey-comments-page": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id,tenant_id,task_id,body_enc FROM user_task_comments ORDER BY id  FETCH NEXT :1 ROWS ONLY
--   binds: int
UPDATE user_task_comments SET body_enc=:1 WHERE id = :2 AND DBMS_LOB.COMPARE(body_enc, :3) = 0
--   binds: string x3
COMMIT

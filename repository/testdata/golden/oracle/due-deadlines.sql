-- Scenario "due-deadlines": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_deadlines WHERE (state = :1 AND due_at <= :2) AND (due_at >= :3 AND (due_at > :4 OR task_id > :5 OR (task_id = :6 AND idx > :7))) ORDER BY due_at,task_id,idx  FETCH NEXT :8 ROWS ONLY
--   binds: string, time.Time x3, string x2, int x2
ROLLBACK

-- Scenario "due-deadlines": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_deadlines" WHERE (state = @p1 AND due_at <= @p2) AND (due_at >= @p3 AND (due_at > @p4 OR task_id > @p5 OR (task_id = @p6 AND idx > @p7))) ORDER BY due_at,task_id,idx OFFSET 0 ROW FETCH NEXT 50 ROWS ONLY
--   binds: string, time.Time x3, string x2, int
ROLLBACK

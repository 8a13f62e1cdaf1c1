-- Scenario "add-comment-replayed": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = @p1 AND tenant_id = @p2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = @p3 AND tenant_id = @p4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
SELECT * FROM "user_task_comments" WHERE tenant_id = @p1 AND task_id = @p2 AND id = @p3 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
ROLLBACK

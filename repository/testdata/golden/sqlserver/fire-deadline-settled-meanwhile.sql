-- Scenario "fire-deadline-settled-meanwhile": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT "id","tenant_id","workflow_definition_id","workflow_definition_name","workflow_definition_version","workflow_instance_id","workflow_instance_reference","activity_instance_id","bookmark_id","materialization_key","title","summary","reference","task_type","tags","requester_provider","requester_type","requester_id","requester_display","priority","due_at","is_overdue","status","created_at","updated_at","assigned_at","completed_at","transitioned_at","assignee_provider","assignee_type","assignee_id","assignee_display","membership_mode","allow_exclusion_override","candidate_users","candidate_groups","actions_json","timeout_enabled","cancellation_enabled","health_severity","health_code","health_message","completion_action_key","completed_by_provider","completed_by_type","completed_by_id","completed_by_display","revision","last_event_seq","delegated_by_provider","delegated_by_type","delegated_by_id","delegated_by_display","invitation_defs_enc" FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = @p1 AND tenant_id = @p2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = @p3 AND tenant_id = @p4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
SELECT * FROM "user_task_deadlines" WHERE task_id = @p1 AND idx = @p2 AND tenant_id = @p3 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string, int, string
UPDATE "user_task_deadlines" SET "fired_at"=@p1,"state"=@p2 WHERE task_id = @p3 AND idx = @p4 AND tenant_id = @p5 AND state = @p6
--   binds: time.Time, string x2, int, string x2
ROLLBACK

-- Scenario "due-tasks": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id","tenant_id","workflow_definition_id","workflow_definition_name","workflow_definition_version","workflow_instance_id","workflow_instance_reference","activity_instance_id","bookmark_id","materialization_key","title","summary","reference","task_type","tags","requester_provider","requester_type","requester_id","requester_display","priority","due_at","is_overdue","status","created_at","updated_at","assigned_at","completed_at","transitioned_at","assignee_provider","assignee_type","assignee_id","assignee_display","membership_mode","allow_exclusion_override","candidate_users","candidate_groups","actions_json","timeout_enabled","cancellation_enabled","health_severity","health_code","health_message","completion_action_key","completed_by_provider","completed_by_type","completed_by_id","completed_by_display","revision","last_event_seq" FROM "user_tasks" WHERE status IN (@p1,@p2,@p3) AND due_at IS NOT NULL AND due_at <= @p4 AND (timeout_enabled = @p5 OR is_overdue = @p6) AND id > @p7 ORDER BY id OFFSET 0 ROW FETCH NEXT 200 ROWS ONLY
--   binds: string x3, time.Time, bool x2, string
ROLLBACK

-- Scenario "query-without-subject": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_tasks" WHERE tenant_id = @p1 AND 1 = 0
--   binds: string
SELECT "id","tenant_id","workflow_definition_id","workflow_definition_name","workflow_definition_version","workflow_instance_id","workflow_instance_reference","activity_instance_id","bookmark_id","materialization_key","title","summary","reference","task_type","tags","requester_provider","requester_type","requester_id","requester_display","priority","due_at","is_overdue","status","created_at","updated_at","assigned_at","completed_at","transitioned_at","assignee_provider","assignee_type","assignee_id","assignee_display","membership_mode","allow_exclusion_override","candidate_users","candidate_groups","actions_json","timeout_enabled","cancellation_enabled","health_severity","health_code","health_message","completion_action_key","completed_by_provider","completed_by_type","completed_by_id","completed_by_display","revision","last_event_seq","delegated_by_provider","delegated_by_type","delegated_by_id","delegated_by_display" FROM "user_tasks" WHERE tenant_id = @p1 AND 1 = 0 ORDER BY created_at ASC, id ASC OFFSET 0 ROW FETCH NEXT 51 ROWS ONLY
--   binds: string
ROLLBACK

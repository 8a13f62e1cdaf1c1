-- Scenario "fire-deadline": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
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
UPDATE "user_tasks" SET "priority"=@p1,"candidate_users"=@p2,"revision"=@p3,"last_event_seq"=@p4 WHERE (tenant_id = @p5 AND revision = @p6 AND last_event_seq = @p7) AND "id" = @p8
--   binds: int x4, string, int x2, string
DELETE FROM "user_task_candidates" WHERE task_id = @p1 AND tenant_id = @p2
--   binds: string x2
DELETE FROM "user_task_exclusions" WHERE task_id = @p1 AND tenant_id = @p2
--   binds: string x2
INSERT INTO "user_task_candidates" ("id","tenant_id","task_id","provider","participant_type","participant_id","display_name","source","source_key","source_group_provider","source_group_id","task_status","created_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x6, NULL, string x2, NULL x2, string, time.Time x2
INSERT INTO "user_task_exclusions" ("id","tenant_id","task_id","provider","participant_type","participant_id","display_name","created_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8);
--   binds: string x7, time.Time
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, string, NULL x5, string
INSERT INTO "user_task_operations" ("id","tenant_id","task_id","operation_id","kind","expected_revision","request_hash","state","attempts","action_key","reason","actor_provider","actor_type","actor_id","actor_display","result_json","payload_enc","created_at","updated_at","completed_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20);
--   binds: string x5, int, string x2, int, NULL x6, string, NULL, time.Time x3
UPDATE "user_task_daily_stats" SET "event_count"=event_count + 1,"updated_at"=@p1,"workflow_definition_name"=@p2 WHERE tenant_id = @p3 AND stat_day = @p4 AND workflow_definition_id = @p5 AND metric = @p6 AND bucket = @p7 AND stripe = @p8
--   binds: time.Time, string x5, int x2
INSERT INTO "user_task_notifications" ("id","tenant_id","task_id","trigger_kind","revision","recipient_provider","recipient_type","recipient_id","actor_provider","actor_type","actor_id","actor_display","title","state","email_state","webhook_state","attempts","available_at","last_error","lease_owner","lease_token","lease_generation","lease_expires_at","occurred_at","visible_at","read_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27);
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
INSERT INTO "user_task_notifications" ("id","tenant_id","task_id","trigger_kind","revision","recipient_provider","recipient_type","recipient_id","actor_provider","actor_type","actor_id","actor_display","title","state","email_state","webhook_state","attempts","available_at","last_error","lease_owner","lease_token","lease_generation","lease_expires_at","occurred_at","visible_at","read_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27);
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
COMMIT

-- Scenario "create-with-deadline-policy": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_tenants" WHERE tenant_id = @p1
--   binds: string
SELECT * FROM "user_task_tenant_counters" WHERE tenant_id = @p1 ORDER BY stripe
--   binds: string
COMMIT
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id" FROM "user_tasks" WHERE tenant_id = @p1 AND (materialization_key = @p2 OR bookmark_id = @p3) ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
SELECT * FROM "user_task_deadline_policies" WHERE tenant_id = @p1 AND workflow_definition_id = @p2 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
INSERT INTO "user_tasks" ("id","tenant_id","workflow_definition_id","workflow_definition_name","workflow_definition_version","workflow_instance_id","workflow_instance_reference","activity_instance_id","bookmark_id","materialization_key","title","summary","reference","task_type","tags","search_text","requester_provider","requester_type","requester_id","requester_display","priority","due_at","is_overdue","status","created_at","updated_at","assigned_at","completed_at","transitioned_at","assignee_provider","assignee_type","assignee_id","assignee_display","membership_mode","allow_exclusion_override","candidate_users","candidate_groups","actions_json","timeout_enabled","cancellation_enabled","health_severity","health_code","health_message","instructions_enc","task_data_enc","form_enc","invitation_defs_enc","completion_data_enc","completion_action_key","completed_by_provider","completed_by_type","completed_by_id","completed_by_display","revision","last_event_seq","delegated_by_provider","delegated_by_type","delegated_by_id","delegated_by_display") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27,@p28,@p29,@p30,@p31,@p32,@p33,@p34,@p35,@p36,@p37,@p38,@p39,@p40,@p41,@p42,@p43,@p44,@p45,@p46,@p47,@p48,@p49,@p50,@p51,@p52,@p53,@p54,@p55,@p56,@p57,@p58,@p59);
--   binds: string x4, int, string x9, NULL, string, NULL x4, int, NULL, bool, string, time.Time x2, NULL x7, string, bool, int x2, string, bool x2, NULL x13, int x2, NULL x4
INSERT INTO "user_task_candidates" ("id","tenant_id","task_id","provider","participant_type","participant_id","display_name","source","source_key","source_group_provider","source_group_id","task_status","created_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x6, NULL, string x2, NULL x2, string, time.Time x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, NULL x6, string
INSERT INTO "user_task_deadlines" ("tenant_id","task_id","idx","kind","due_at","actions_json","state","fired_at","created_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9);
--   binds: string x2, int, string, time.Time, string x2, NULL, time.Time
INSERT INTO "user_task_notifications" ("id","tenant_id","task_id","trigger_kind","revision","recipient_provider","recipient_type","recipient_id","actor_provider","actor_type","actor_id","actor_display","title","state","email_state","webhook_state","attempts","available_at","last_error","lease_owner","lease_token","lease_generation","lease_expires_at","occurred_at","visible_at","read_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27);
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
UPDATE "user_task_daily_stats" SET "event_count"=event_count + 1,"updated_at"=@p1,"workflow_definition_name"=@p2 WHERE tenant_id = @p3 AND stat_day = @p4 AND workflow_definition_id = @p5 AND metric = @p6 AND bucket = @p7 AND stripe = @p8
--   binds: time.Time, string x5, int x2
UPDATE "user_task_tenant_counters" SET "open_tasks"=open_tasks + 1,"updated_at"=@p1 WHERE tenant_id = @p2 AND stripe = @p3 AND open_tasks < @p4
--   binds: time.Time, string, int x2
COMMIT

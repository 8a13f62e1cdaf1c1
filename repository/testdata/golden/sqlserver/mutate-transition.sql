-- Scenario "mutate-transition": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = @p1 AND tenant_id = @p2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = @p3 AND tenant_id = @p4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE "user_tasks" SET "status"=@p1,"transitioned_at"=@p2,"completion_data_enc"=@p3,"completion_action_key"=@p4,"revision"=@p5,"last_event_seq"=@p6 WHERE (tenant_id = @p7 AND revision = @p8 AND last_event_seq = @p9) AND "id" = @p10
--   binds: string, time.Time, string x2, int x2, string, int x2, string
UPDATE "user_task_candidates" SET "task_status"=@p1,"updated_at"=@p2 WHERE task_id = @p3 AND tenant_id = @p4
--   binds: string, time.Time, string x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, string, NULL x6
INSERT INTO "user_task_operations" ("id","tenant_id","task_id","operation_id","kind","expected_revision","request_hash","state","attempts","action_key","reason","actor_provider","actor_type","actor_id","actor_display","result_json","payload_enc","created_at","updated_at","completed_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20);
--   binds: string x5, int, string x2, int, string, NULL x5, string x2, time.Time x2, NULL
INSERT INTO "user_task_resumptions" ("id","tenant_id","task_id","operation_id","kind","state","attempts","available_at","last_error","lease_owner","lease_token","lease_generation","lease_expires_at","created_at","updated_at","delivered_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16);
--   binds: string x6, int, time.Time, NULL x3, int64, NULL, time.Time x2, NULL
COMMIT

-- Scenario "mutate-finalize": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = @p1 AND tenant_id = @p2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = @p3 AND tenant_id = @p4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE "user_tasks" SET "status"=@p1,"completed_at"=@p2,"revision"=@p3,"last_event_seq"=@p4 WHERE (tenant_id = @p5 AND revision = @p6 AND last_event_seq = @p7) AND "id" = @p8
--   binds: string, time.Time, int x2, string, int x2, string
UPDATE "user_task_candidates" SET "task_status"=@p1,"updated_at"=@p2 WHERE task_id = @p3 AND tenant_id = @p4
--   binds: string, time.Time, string x2
UPDATE "user_task_operations" SET "completed_at"=@p1,"state"=@p2,"updated_at"=@p3 WHERE tenant_id = @p4 AND task_id = @p5 AND state = @p6
--   binds: time.Time, string, time.Time, string x3
UPDATE "user_task_resumptions" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"state"=@p4,"updated_at"=@p5 WHERE tenant_id = @p6 AND task_id = @p7 AND state = @p8
--   binds: NULL x3, string, time.Time, string x3
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, string, NULL x6
UPDATE "user_task_tenant_counters" SET "open_tasks"=open_tasks - 1,"updated_at"=@p1 WHERE tenant_id = @p2 AND stripe = @p3 AND open_tasks > 0
--   binds: time.Time, string, int
UPDATE "user_task_daily_stats" SET "event_count"=event_count + 1,"updated_at"=@p1,"workflow_definition_name"=@p2 WHERE tenant_id = @p3 AND stat_day = @p4 AND workflow_definition_id = @p5 AND metric = @p6 AND bucket = @p7 AND stripe = @p8
--   binds: time.Time, string x5, int x2
COMMIT

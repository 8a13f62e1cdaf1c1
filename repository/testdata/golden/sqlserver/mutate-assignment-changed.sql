-- Scenario "mutate-assignment-changed": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = @p1 AND tenant_id = @p2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = @p3 AND tenant_id = @p4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE "user_tasks" SET "priority"=@p1,"candidate_users"=@p2,"revision"=@p3,"last_event_seq"=@p4 WHERE (tenant_id = @p5 AND revision = @p6 AND last_event_seq = @p7) AND "id" = @p8
--   binds: int x4, string, int x2, string
DELETE FROM "user_task_candidates" WHERE task_id = @p1 AND tenant_id = @p2
--   binds: string x2
DELETE FROM "user_task_exclusions" WHERE task_id = @p1 AND tenant_id = @p2
--   binds: string x2
INSERT INTO "user_task_candidates" ("id","tenant_id","task_id","provider","participant_type","participant_id","display_name","source","source_key","source_group_provider","source_group_id","task_status","created_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14),(@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27,@p28),(@p29,@p30,@p31,@p32,@p33,@p34,@p35,@p36,@p37,@p38,@p39,@p40,@p41,@p42),(@p43,@p44,@p45,@p46,@p47,@p48,@p49,@p50,@p51,@p52,@p53,@p54,@p55,@p56);
--   binds: string x9, NULL x2, string, time.Time x2, string x9, NULL x2, string, time.Time x2, string x6, NULL, string x2, NULL x2, string, time.Time x2, string x9, NULL x2, string, time.Time x2
INSERT INTO "user_task_exclusions" ("id","tenant_id","task_id","provider","participant_type","participant_id","display_name","created_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8);
--   binds: string x7, time.Time
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, NULL x7
COMMIT

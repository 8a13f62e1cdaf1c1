-- Scenario "add-notifications-key-taken": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
INSERT INTO "user_task_notifications" ("id","tenant_id","task_id","trigger_kind","revision","recipient_provider","recipient_type","recipient_id","actor_provider","actor_type","actor_id","actor_display","title","state","email_state","webhook_state","attempts","available_at","last_error","lease_owner","lease_token","lease_generation","lease_expires_at","occurred_at","visible_at","read_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27);
--   binds: string x4, int64, string x9, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
INSERT INTO "user_task_notifications" ("id","tenant_id","task_id","trigger_kind","revision","recipient_provider","recipient_type","recipient_id","actor_provider","actor_type","actor_id","actor_display","title","state","email_state","webhook_state","attempts","available_at","last_error","lease_owner","lease_token","lease_generation","lease_expires_at","occurred_at","visible_at","read_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22,@p23,@p24,@p25,@p26,@p27);
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
COMMIT

-- Scenario "create-web-session": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
INSERT INTO "user_task_web_sessions" ("id_hash","tenant_id","subject_provider","subject_id","display_name","groups_json","permissions_json","is_manager","via","refresh_token_enc","time_zone","idle_timeout_seconds","created_at","last_seen_at","refreshed_at","expires_at","idle_expires_at","id_token_enc") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18);
--   binds: string x7, bool, string x2, NULL, int, time.Time x5, string
COMMIT

-- Scenario "update-web-session-identity": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_web_sessions" SET "display_name"=@p1,"groups_json"=@p2,"id_token_enc"=@p3,"is_manager"=@p4,"permissions_json"=@p5,"refresh_token_enc"=@p6,"refreshed_at"=@p7 WHERE (id_hash = @p8 AND expires_at > @p9 AND idle_expires_at > @p10) AND (tenant_id = @p11 AND subject_provider = @p12 AND subject_id = @p13)
--   binds: string x3, bool, string x2, time.Time, string, time.Time x2, string x3
COMMIT

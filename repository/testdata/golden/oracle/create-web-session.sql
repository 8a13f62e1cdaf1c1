-- Scenario "create-web-session": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
INSERT INTO user_task_web_sessions (id_hash,tenant_id,subject_provider,subject_id,display_name,groups_json,permissions_json,is_manager,via,refresh_token_enc,time_zone,idle_timeout_seconds,created_at,last_seen_at,refreshed_at,expires_at,idle_expires_at,id_token_enc) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18)
--   binds: string x7, int, string x2, NULL, int, time.Time x5, string
COMMIT

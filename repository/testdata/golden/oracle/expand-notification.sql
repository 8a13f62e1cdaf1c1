-- Scenario "expand-notification": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_notifications SET email_state=:1,lease_expires_at=:2,lease_owner=:3,lease_token=:4,state=:5,updated_at=:6,webhook_state=:7 WHERE id = :8 AND state = :9 AND lease_token = :10 AND lease_generation = :11 AND lease_expires_at > :12
--   binds: string, NULL x3, string, time.Time, string x4, int64, time.Time
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
COMMIT

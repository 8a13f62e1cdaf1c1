-- Scenario "settle-digest": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_notifications SET email_state=:1,lease_expires_at=:2,lease_owner=:3,lease_token=:4,updated_at=:5 WHERE id = :6 AND email_state = :7 AND lease_token = :8 AND lease_generation = :9 AND lease_expires_at > :10
--   binds: string, NULL x3, time.Time, string x3, int64, time.Time
UPDATE user_task_notifications SET email_state=:1,lease_expires_at=:2,lease_owner=:3,lease_token=:4,updated_at=:5 WHERE id = :6 AND email_state = :7 AND lease_token = :8 AND lease_generation = :9 AND lease_expires_at > :10
--   binds: string, NULL x3, time.Time, string x3, int64, time.Time
COMMIT

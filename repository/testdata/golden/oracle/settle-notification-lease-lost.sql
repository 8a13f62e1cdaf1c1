-- Scenario "settle-notification-lease-lost": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_notifications SET attempts=:1,email_state=:2,last_error=:3,lease_expires_at=:4,lease_owner=:5,lease_token=:6,state=:7,updated_at=:8,webhook_state=:9 WHERE id = :10 AND state = :11 AND lease_token = :12 AND lease_generation = :13 AND lease_expires_at > :14
--   binds: int, string, NULL x4, string, time.Time, string x4, int64, time.Time
ROLLBACK

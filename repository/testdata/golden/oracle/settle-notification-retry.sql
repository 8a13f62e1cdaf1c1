-- Scenario "settle-notification-retry": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_notifications SET attempts=:1,available_at=:2,email_state=:3,last_error=:4,lease_expires_at=:5,lease_owner=:6,lease_token=:7,state=:8,updated_at=:9,visible_at=:10,webhook_state=:11 WHERE id = :12 AND state = :13 AND lease_token = :14 AND lease_generation = :15 AND lease_expires_at > :16
--   binds: int, time.Time, string x2, NULL x3, string, time.Time x2, NULL, string x3, int64, time.Time
COMMIT

-- Scenario "ack-resumption": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_resumptions SET delivered_at=:1,lease_expires_at=:2,lease_owner=:3,lease_token=:4,state=:5,updated_at=:6 WHERE id = :7 AND state = :8 AND lease_token = :9 AND lease_generation = :10 AND lease_expires_at > :11
--   binds: time.Time, NULL x3, string, time.Time, string x3, int64, time.Time
COMMIT

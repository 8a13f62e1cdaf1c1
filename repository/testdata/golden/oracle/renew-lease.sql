-- Scenario "renew-lease": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_leases SET lease_expires_at=:1,updated_at=:2 WHERE lease_name = :3 AND lease_token = :4 AND lease_generation = :5 AND lease_expires_at > :6
--   binds: time.Time x2, string x2, int64, time.Time
COMMIT

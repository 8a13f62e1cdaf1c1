-- Scenario "acquire-lease-created-concurrently": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_leases WHERE lease_name = :1 ORDER BY lease_name  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
INSERT INTO user_task_leases (lease_name,lease_owner,lease_token,lease_generation,lease_expires_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6)
--   binds: string x3, int64, time.Time x2
ROLLBACK
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_leases WHERE lease_name = :1 ORDER BY lease_name  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
ROLLBACK

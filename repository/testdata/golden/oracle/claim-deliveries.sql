-- Scenario "claim-deliveries": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id,lease_generation FROM user_task_deliveries WHERE state = :1 AND available_at <= :2 AND (lease_expires_at IS NULL OR lease_expires_at <= :3) ORDER BY available_at, id  FETCH NEXT :4 ROWS ONLY
--   binds: string, time.Time x2, int
UPDATE user_task_deliveries SET lease_expires_at=:1,lease_generation=:2,lease_owner=:3,lease_token=:4,updated_at=:5 WHERE id = :6 AND lease_generation = :7
--   binds: time.Time, int64, string x2, time.Time, string, int64
UPDATE user_task_deliveries SET lease_expires_at=:1,lease_generation=:2,lease_owner=:3,lease_token=:4,updated_at=:5 WHERE id = :6 AND lease_generation = :7
--   binds: time.Time, int64, string x2, time.Time, string, int64
SELECT * FROM user_task_deliveries WHERE id IN (:1,:2) ORDER BY available_at, id
--   binds: string x2
COMMIT

-- Scenario "claim-notifications": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id" FROM "user_task_notifications" WHERE state = @p1 AND available_at <= @p2 AND (lease_expires_at IS NULL OR lease_expires_at <= @p3) ORDER BY available_at, id OFFSET 0 ROW FETCH NEXT 50 ROWS ONLY
--   binds: string, time.Time x2
UPDATE "user_task_notifications" SET "lease_expires_at"=@p1,"lease_generation"=lease_generation + 1,"lease_owner"=@p2,"lease_token"=@p3,"updated_at"=@p4 WHERE id IN (@p5) AND (state = @p6 AND available_at <= @p7 AND (lease_expires_at IS NULL OR lease_expires_at <= @p8))
--   binds: time.Time, string x2, time.Time, string x2, time.Time x2
SELECT * FROM "user_task_notifications" WHERE id IN (@p1) AND lease_token = @p2 ORDER BY available_at, id
--   binds: string x2
COMMIT

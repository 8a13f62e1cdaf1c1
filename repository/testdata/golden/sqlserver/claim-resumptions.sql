-- Scenario "claim-resumptions": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id","lease_generation" FROM "user_task_resumptions" WHERE state = @p1 AND available_at <= @p2 AND (lease_expires_at IS NULL OR lease_expires_at <= @p3) ORDER BY available_at, id OFFSET 0 ROW FETCH NEXT 10 ROWS ONLY
--   binds: string, time.Time x2
UPDATE "user_task_resumptions" SET "lease_expires_at"=@p1,"lease_generation"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"updated_at"=@p5 WHERE id = @p6 AND lease_generation = @p7
--   binds: time.Time, int64, string x2, time.Time, string, int64
UPDATE "user_task_resumptions" SET "lease_expires_at"=@p1,"lease_generation"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"updated_at"=@p5 WHERE id = @p6 AND lease_generation = @p7
--   binds: time.Time, int64, string x2, time.Time, string, int64
SELECT * FROM "user_task_resumptions" WHERE id IN (@p1) ORDER BY available_at, id
--   binds: string
COMMIT

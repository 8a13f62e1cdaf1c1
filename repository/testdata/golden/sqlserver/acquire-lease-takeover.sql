-- Scenario "acquire-lease-takeover": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_leases" WHERE lease_name = @p1 ORDER BY "lease_name" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
UPDATE "user_task_leases" SET "lease_expires_at"=@p1,"lease_generation"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"updated_at"=@p5 WHERE lease_name = @p6 AND lease_generation = @p7
--   binds: time.Time, int64, string x2, time.Time, string, int64
COMMIT

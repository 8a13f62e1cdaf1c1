-- Scenario "acquire-lease-new": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_leases" WHERE lease_name = @p1 ORDER BY "lease_name" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
INSERT INTO "user_task_leases" ("lease_name","lease_owner","lease_token","lease_generation","lease_expires_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6);
--   binds: string x3, int64, time.Time x2
COMMIT

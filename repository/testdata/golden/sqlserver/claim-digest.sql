-- Scenario "claim-digest": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id" FROM "user_task_notifications" WHERE (email_state = @p1 AND tenant_id = @p2 AND recipient_provider = @p3 AND recipient_type = @p4 AND recipient_id = @p5) AND (occurred_at < @p6 AND (lease_expires_at IS NULL OR lease_expires_at <= @p7)) ORDER BY occurred_at, id OFFSET 0 ROW FETCH NEXT 100 ROWS ONLY
--   binds: string x5, time.Time x2
UPDATE "user_task_notifications" SET "lease_expires_at"=@p1,"lease_generation"=lease_generation + 1,"lease_owner"=@p2,"lease_token"=@p3,"updated_at"=@p4 WHERE id IN (@p5) AND (email_state = @p6 AND tenant_id = @p7 AND recipient_provider = @p8 AND recipient_type = @p9 AND recipient_id = @p10) AND (occurred_at < @p11 AND (lease_expires_at IS NULL OR lease_expires_at <= @p12))
--   binds: time.Time, string x2, time.Time, string x6, time.Time x2
SELECT * FROM "user_task_notifications" WHERE id IN (@p1) AND lease_token = @p2 ORDER BY occurred_at, id
--   binds: string x2
COMMIT

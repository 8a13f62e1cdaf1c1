-- Scenario "revoke-invitation": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT * FROM "user_task_invitations" WHERE tenant_id = @p1 AND task_id = @p2 AND id = @p3 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
UPDATE "user_task_invitations" SET "revoked_at"=@p1,"status"=@p2,"updated_at"=@p3 WHERE tenant_id = @p4 AND id = @p5 AND status IN (@p6,@p7,@p8)
--   binds: time.Time, string, time.Time, string x5
UPDATE "user_task_deliveries" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"state"=@p4,"updated_at"=@p5 WHERE tenant_id = @p6 AND invitation_id = @p7 AND state = @p8
--   binds: NULL x3, string, time.Time, string x3
UPDATE "user_task_guest_sessions" SET "revoked_at"=@p1 WHERE tenant_id = @p2 AND invitation_id = @p3 AND revoked_at IS NULL
--   binds: time.Time, string x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, NULL, string x4, NULL x2
COMMIT

-- Scenario "verify-invitation": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_invitations" WHERE token_hash = @p1 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
UPDATE "user_task_invitations" SET "code_attempts"=code_attempts WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_task_invitations" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = @p1 AND tenant_id = @p2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = @p3 AND tenant_id = @p4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE "user_tasks" SET "status"=@p1,"assigned_at"=@p2,"assignee_provider"=@p3,"assignee_type"=@p4,"assignee_id"=@p5,"assignee_display"=@p6,"revision"=@p7,"last_event_seq"=@p8 WHERE (tenant_id = @p9 AND revision = @p10 AND last_event_seq = @p11) AND "id" = @p12
--   binds: string, time.Time, string x4, int x2, string, int x2, string
UPDATE "user_task_candidates" SET "task_status"=@p1,"updated_at"=@p2 WHERE task_id = @p3 AND tenant_id = @p4
--   binds: string, time.Time, string x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, string x5, NULL, string
INSERT INTO "user_task_operations" ("id","tenant_id","task_id","operation_id","kind","expected_revision","request_hash","state","attempts","action_key","reason","actor_provider","actor_type","actor_id","actor_display","result_json","payload_enc","created_at","updated_at","completed_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20);
--   binds: string x5, int, string x2, int, NULL x2, string x5, NULL, time.Time x3
UPDATE "user_task_invitations" SET "status"=@p1,"updated_at"=@p2,"verified_at"=@p3 WHERE tenant_id = @p4 AND id = @p5 AND status IN (@p6,@p7)
--   binds: string, time.Time x2, string x4
UPDATE "user_task_deliveries" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"state"=@p4,"updated_at"=@p5 WHERE tenant_id = @p6 AND invitation_id = @p7 AND state = @p8
--   binds: NULL x3, string, time.Time, string x3
SELECT "id","tenant_id","task_id" FROM "user_task_invitations" WHERE tenant_id = @p1 AND sibling_group_id = @p2 AND id <> @p3 AND status IN (@p4,@p5) ORDER BY id
--   binds: string x5
UPDATE "user_task_invitations" SET "revoked_at"=@p1,"status"=@p2,"updated_at"=@p3 WHERE tenant_id = @p4 AND id = @p5 AND status IN (@p6,@p7)
--   binds: time.Time, string, time.Time, string x4
UPDATE "user_task_deliveries" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"state"=@p4,"updated_at"=@p5 WHERE tenant_id = @p6 AND invitation_id = @p7 AND state = @p8
--   binds: NULL x3, string, time.Time, string x3
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, NULL x6, string
INSERT INTO "user_task_guest_sessions" ("id","tenant_id","task_id","invitation_id","token_hash","participant_provider","participant_id","capabilities","issued_at","expires_at","revoked_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11);
--   binds: string x8, time.Time x2, NULL
COMMIT

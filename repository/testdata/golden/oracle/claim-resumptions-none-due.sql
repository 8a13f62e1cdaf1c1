-- Scenario "claim-resumptions-none-due": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id FROM user_task_resumptions WHERE state = :1 AND available_at <= :2 AND (lease_expires_at IS NULL OR lease_expires_at <= :3) ORDER BY available_at, id  FETCH NEXT :4 ROWS ONLY
--   binds: string, time.Time x2, int
COMMIT

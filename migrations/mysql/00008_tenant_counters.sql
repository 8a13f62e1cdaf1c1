-- The tenant open-task counter in stripes (issue 13): every creation and every finalization
-- raised or lowered the one open_tasks value of user_task_tenants, so all writers of a tenant
-- queued on that row lock (188 s of lock wait in a 45 s PostgreSQL run). Each tenant now has
-- a few counter rows (stripes); a writer updates one of them and the open count is their sum
-- (repository/tenant_counter.go). The old count moves to stripe 0, so the sum equals it; the
-- store spreads it over the stripes when it first meets the tenant.

-- +goose Up
CREATE TABLE user_task_tenant_counters (
    tenant_id  VARCHAR(64) NOT NULL,
    stripe     INT         NOT NULL,
    open_tasks INT         NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    PRIMARY KEY (tenant_id, stripe)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO user_task_tenant_counters (tenant_id, stripe, open_tasks, updated_at)
    SELECT tenant_id, 0, open_tasks, updated_at FROM user_task_tenants;
ALTER TABLE user_task_tenants DROP COLUMN open_tasks;

-- +goose Down
ALTER TABLE user_task_tenants ADD COLUMN open_tasks INT NOT NULL DEFAULT 0;
UPDATE user_task_tenants SET open_tasks = (SELECT COALESCE(SUM(c.open_tasks), 0)
    FROM user_task_tenant_counters c WHERE c.tenant_id = user_task_tenants.tenant_id);
DROP TABLE user_task_tenant_counters;

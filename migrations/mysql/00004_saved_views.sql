-- Saved inbox views (issue 10): a named inbox query of one owner, private or shared with the
-- tenant's managers. inbox_query is the normalized inbox URL query (filters and sort, never a cursor);
-- name_key is the name lower-cased, unique per owner so names differ case-insensitively. The
-- store keeps at most 50 views per owner.

-- +goose Up
CREATE TABLE user_task_saved_views (
    id             VARCHAR(36)  NOT NULL,
    tenant_id      VARCHAR(64)  NOT NULL,
    owner_provider VARCHAR(64)  NOT NULL,
    owner_type     VARCHAR(8)   NOT NULL,
    owner_id       VARCHAR(255) NOT NULL,
    owner_display  VARCHAR(256),
    name           VARCHAR(160) NOT NULL,
    name_key       VARCHAR(160) NOT NULL,
    inbox_query    LONGTEXT     NOT NULL,
    is_shared      TINYINT(1)   NOT NULL,
    created_at     DATETIME(6)  NOT NULL,
    updated_at     DATETIME(6)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE INDEX ux_saved_views_name (tenant_id, owner_provider, owner_type, owner_id, name_key),
    INDEX ix_saved_views_shared (tenant_id, is_shared)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE user_task_saved_views;

-- Saved inbox views (issue 10): a named inbox query of one owner, private or shared with the
-- tenant's managers. inbox_query is the normalized inbox URL query (filters and sort, never a cursor);
-- name_key is the name lower-cased, unique per owner so names differ case-insensitively. The
-- store keeps at most 50 views per owner.

-- +goose Up
CREATE TABLE user_task_saved_views (
    id             NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id      NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    owner_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    owner_type     NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    owner_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    owner_display  NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    name           NVARCHAR(160) COLLATE Latin1_General_100_BIN2 NOT NULL,
    name_key       NVARCHAR(160) COLLATE Latin1_General_100_BIN2 NOT NULL,
    inbox_query    NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2 NOT NULL,
    is_shared      BIT                                           NOT NULL,
    created_at     DATETIME2(6)                                  NOT NULL,
    updated_at     DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_saved_views PRIMARY KEY (id)
);
CREATE UNIQUE INDEX ux_saved_views_name ON user_task_saved_views (tenant_id, owner_provider, owner_type, owner_id, name_key);
CREATE INDEX ix_saved_views_shared ON user_task_saved_views (tenant_id, is_shared);

-- +goose Down
DROP TABLE user_task_saved_views;

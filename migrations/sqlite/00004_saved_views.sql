-- Saved inbox views (issue 10): a named inbox query of one owner, private or shared with the
-- tenant's managers. inbox_query is the normalized inbox URL query (filters and sort, never a cursor);
-- name_key is the name lower-cased, unique per owner so names differ case-insensitively. The
-- store keeps at most 50 views per owner.

-- +goose Up
CREATE TABLE user_task_saved_views (
    id             VARCHAR(36)  NOT NULL PRIMARY KEY,
    tenant_id      VARCHAR(64)  NOT NULL,
    owner_provider VARCHAR(64)  NOT NULL,
    owner_type     VARCHAR(8)   NOT NULL,
    owner_id       VARCHAR(255) NOT NULL,
    owner_display  VARCHAR(256),
    name           VARCHAR(160) NOT NULL,
    name_key       VARCHAR(160) NOT NULL,
    inbox_query    TEXT         NOT NULL,
    is_shared      BOOLEAN      NOT NULL,
    created_at     TIMESTAMP    NOT NULL,
    updated_at     TIMESTAMP    NOT NULL
);
CREATE UNIQUE INDEX ux_saved_views_name ON user_task_saved_views (tenant_id, owner_provider, owner_type, owner_id, name_key);
CREATE INDEX ix_saved_views_shared ON user_task_saved_views (tenant_id, is_shared);

-- +goose Down
DROP TABLE user_task_saved_views;

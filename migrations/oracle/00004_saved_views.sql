-- Saved inbox views (issue 10): a named inbox query of one owner, private or shared with the
-- tenant's managers. inbox_query is the normalized inbox URL query (filters and sort, never a cursor);
-- name_key is the name lower-cased, unique per owner so names differ case-insensitively. The
-- store keeps at most 50 views per owner.

-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_saved_views (
    id             VARCHAR2(36 CHAR)  NOT NULL,
    tenant_id      VARCHAR2(64 CHAR)  NOT NULL,
    owner_provider VARCHAR2(64 CHAR)  NOT NULL,
    owner_type     VARCHAR2(8 CHAR)   NOT NULL,
    owner_id       VARCHAR2(255 CHAR) NOT NULL,
    owner_display  VARCHAR2(256 CHAR),
    name           VARCHAR2(160 CHAR) NOT NULL,
    name_key       VARCHAR2(160 CHAR) NOT NULL,
    inbox_query    CLOB               NOT NULL,
    is_shared      NUMBER(1)          NOT NULL,
    created_at     TIMESTAMP(6)       NOT NULL,
    updated_at     TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_saved_views PRIMARY KEY (id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_saved_views_name ON user_task_saved_views (tenant_id, owner_provider, owner_type, owner_id, name_key)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_saved_views_shared ON user_task_saved_views (tenant_id, is_shared)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_saved_views PURGE
-- +goose StatementEnd

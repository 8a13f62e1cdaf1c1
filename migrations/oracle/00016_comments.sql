-- Comments on tasks (issue 29, SPEC 10.1): one row per comment. body_enc seals the text and its
-- mentions with the key ring, bound to tenant, task and comment id; it is NULL once the comment
-- is deleted (the item stays, with its author and deleted_at). The list walks ix_comments_list
-- (tenant_id, task_id, created_at, id), oldest first; the task's purge removes its comments by
-- the cascade (ix_comments_task_fk serves it).

-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_comments (
    id              VARCHAR2(36 CHAR)  NOT NULL,
    tenant_id       VARCHAR2(64 CHAR)  NOT NULL,
    task_id         VARCHAR2(36 CHAR)  NOT NULL,
    author_provider VARCHAR2(64 CHAR)  NOT NULL,
    author_type     VARCHAR2(8 CHAR)   NOT NULL,
    author_id       VARCHAR2(255 CHAR) NOT NULL,
    author_display  VARCHAR2(256 CHAR),
    body_enc        CLOB,
    created_at      TIMESTAMP(6)       NOT NULL,
    deleted_at      TIMESTAMP(6),
    CONSTRAINT pk_user_task_comments PRIMARY KEY (id),
    CONSTRAINT fk_comments_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_comments_list ON user_task_comments (tenant_id, task_id, created_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_comments_task_fk ON user_task_comments (task_id)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_comments PURGE
-- +goose StatementEnd

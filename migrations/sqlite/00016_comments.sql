-- Comments on tasks (issue 29, SPEC 10.1): one row per comment. body_enc seals the text and its
-- mentions with the key ring, bound to tenant, task and comment id; it is NULL once the comment
-- is deleted (the item stays, with its author and deleted_at). The list walks ix_comments_list
-- (tenant_id, task_id, created_at, id), oldest first; the task's purge removes its comments by
-- the cascade (ix_comments_task_fk serves it).

-- +goose Up
CREATE TABLE user_task_comments (
    id              VARCHAR(36)  NOT NULL,
    tenant_id       VARCHAR(64)  NOT NULL,
    task_id         VARCHAR(36)  NOT NULL REFERENCES user_tasks (id) ON DELETE CASCADE,
    author_provider VARCHAR(64)  NOT NULL,
    author_type     VARCHAR(8)   NOT NULL,
    author_id       VARCHAR(255) NOT NULL,
    author_display  VARCHAR(256),
    body_enc        TEXT,
    created_at      TIMESTAMP    NOT NULL,
    deleted_at      TIMESTAMP,
    PRIMARY KEY (id)
);
CREATE INDEX ix_comments_list ON user_task_comments (tenant_id, task_id, created_at, id);
CREATE INDEX ix_comments_task_fk ON user_task_comments (task_id);

-- +goose Down
DROP TABLE user_task_comments;

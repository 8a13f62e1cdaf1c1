-- Comments on tasks (issue 29, SPEC 10.1): one row per comment. body_enc seals the text and its
-- mentions with the key ring, bound to tenant, task and comment id; it is NULL once the comment
-- is deleted (the item stays, with its author and deleted_at). The list walks ix_comments_list
-- (tenant_id, task_id, created_at, id), oldest first; the task's purge removes its comments by
-- the cascade (ix_comments_task_fk serves it).

-- +goose Up
CREATE TABLE user_task_comments (
    id              VARCHAR(36)  NOT NULL,
    tenant_id       VARCHAR(64)  NOT NULL,
    task_id         VARCHAR(36)  NOT NULL,
    author_provider VARCHAR(64)  NOT NULL,
    author_type     VARCHAR(8)   NOT NULL,
    author_id       VARCHAR(255) NOT NULL,
    author_display  VARCHAR(256),
    body_enc        LONGTEXT,
    created_at      DATETIME(6)  NOT NULL,
    deleted_at      DATETIME(6),
    PRIMARY KEY (id),
    INDEX ix_comments_list (tenant_id, task_id, created_at, id),
    INDEX ix_comments_task_fk (task_id),
    CONSTRAINT fk_comments_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE user_task_comments;

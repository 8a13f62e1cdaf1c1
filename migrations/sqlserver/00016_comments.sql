-- Comments on tasks (issue 29, SPEC 10.1): one row per comment. body_enc seals the text and its
-- mentions with the key ring, bound to tenant, task and comment id; it is NULL once the comment
-- is deleted (the item stays, with its author and deleted_at). The list walks ix_comments_list
-- (tenant_id, task_id, created_at, id), oldest first; the task's purge removes its comments by
-- the cascade (ix_comments_task_fk serves it).

-- +goose Up
CREATE TABLE user_task_comments (
    id              NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id       NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    task_id         NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    author_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    author_type     NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    author_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    author_display  NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    body_enc        NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    created_at      DATETIME2(6)                                  NOT NULL,
    deleted_at      DATETIME2(6),
    CONSTRAINT pk_user_task_comments PRIMARY KEY (id),
    CONSTRAINT fk_comments_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE INDEX ix_comments_list ON user_task_comments (tenant_id, task_id, created_at, id);
CREATE INDEX ix_comments_task_fk ON user_task_comments (task_id);

-- +goose Down
DROP TABLE user_task_comments;

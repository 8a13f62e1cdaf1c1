-- Attachments (issue 29, SPEC 10.2): files on tasks, stored in the store itself so backup,
-- purge and key rotation cover them. An upload writes its sealed chunks under an unfinished row
-- (created_at NULL) in short transactions; one finishing write sets created_at, size, SHA-256
-- and the chunk count, and only then is the attachment listed (ix_attachments_task). Unfinished
-- rows older than the upload bound are swept with their chunks (ix_attachments_sweep). The file
-- name and every chunk are sealed with the key ring (AAD bound to tenant, task, attachment and
-- chunk index); a chunk holds at most 1 MiB of plain bytes, so its sealed envelope stays under
-- 1.4 MiB (MariaDB's max_allowed_packet default is 16 MiB). Chunks cascade from their
-- attachment, attachments from their task: deleting a task removes every chunk (one cascade
-- path, as SQL Server requires). size is a keyword in Oracle, hence size_bytes.

-- +goose Up
CREATE TABLE user_task_attachments (
    id                VARCHAR(36)                 NOT NULL,
    tenant_id         VARCHAR(64)                 NOT NULL,
    task_id           VARCHAR(36)                 NOT NULL,
    file_name_enc     VARCHAR(1024)               NOT NULL,
    content_type      VARCHAR(128),
    size_bytes        BIGINT                      NOT NULL,
    sha256            VARCHAR(64),
    chunks            INTEGER                     NOT NULL,
    uploader_provider VARCHAR(64)                 NOT NULL,
    uploader_type     VARCHAR(8)                  NOT NULL,
    uploader_id       VARCHAR(255)                NOT NULL,
    uploader_display  VARCHAR(256),
    started_at        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    created_at        TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_user_task_attachments PRIMARY KEY (id),
    CONSTRAINT fk_attachments_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE INDEX ix_attachments_task ON user_task_attachments (tenant_id, task_id, created_at, id);
CREATE INDEX ix_attachments_sweep ON user_task_attachments (created_at, started_at);
CREATE INDEX ix_attachments_task_fk ON user_task_attachments (task_id);

CREATE TABLE user_task_attachment_chunks (
    id            VARCHAR(48) NOT NULL,
    tenant_id     VARCHAR(64) NOT NULL,
    task_id       VARCHAR(36) NOT NULL,
    attachment_id VARCHAR(36) NOT NULL,
    seq           INTEGER     NOT NULL,
    plain_size    INTEGER     NOT NULL,
    chunk_enc     BYTEA       NOT NULL,
    CONSTRAINT pk_user_task_attachment_chunks PRIMARY KEY (id),
    CONSTRAINT fk_att_chunks_attachment FOREIGN KEY (attachment_id) REFERENCES user_task_attachments (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_attachment_chunks_seq ON user_task_attachment_chunks (attachment_id, seq);

-- +goose Down
DROP TABLE user_task_attachment_chunks;
DROP TABLE user_task_attachments;

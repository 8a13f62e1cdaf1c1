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

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_attachments (
    id                VARCHAR2(36 CHAR)   NOT NULL,
    tenant_id         VARCHAR2(64 CHAR)   NOT NULL,
    task_id           VARCHAR2(36 CHAR)   NOT NULL,
    file_name_enc     VARCHAR2(1024 CHAR) NOT NULL,
    content_type      VARCHAR2(128 CHAR),
    size_bytes        NUMBER(19)          NOT NULL,
    sha256            VARCHAR2(64 CHAR),
    chunks            NUMBER(10)          NOT NULL,
    uploader_provider VARCHAR2(64 CHAR)   NOT NULL,
    uploader_type     VARCHAR2(8 CHAR)    NOT NULL,
    uploader_id       VARCHAR2(255 CHAR)  NOT NULL,
    uploader_display  VARCHAR2(256 CHAR),
    started_at        TIMESTAMP(6)        NOT NULL,
    created_at        TIMESTAMP(6),
    CONSTRAINT pk_user_task_attachments PRIMARY KEY (id),
    CONSTRAINT fk_attachments_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_attachments_task ON user_task_attachments (tenant_id, task_id, created_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_attachments_sweep ON user_task_attachments (created_at, started_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_attachments_task_fk ON user_task_attachments (task_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TABLE user_task_attachment_chunks (
    id            VARCHAR2(48 CHAR) NOT NULL,
    tenant_id     VARCHAR2(64 CHAR) NOT NULL,
    task_id       VARCHAR2(36 CHAR) NOT NULL,
    attachment_id VARCHAR2(36 CHAR) NOT NULL,
    seq           NUMBER(10)        NOT NULL,
    plain_size    NUMBER(10)        NOT NULL,
    chunk_enc     BLOB              NOT NULL,
    CONSTRAINT pk_user_task_attachment_chunks PRIMARY KEY (id),
    CONSTRAINT fk_att_chunks_attachment FOREIGN KEY (attachment_id) REFERENCES user_task_attachments (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_attachment_chunks_seq ON user_task_attachment_chunks (attachment_id, seq)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_attachment_chunks PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_attachments PURGE
-- +goose StatementEnd

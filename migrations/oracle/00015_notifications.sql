-- Notifications (issue 28, SPEC 10.3): one row per (recipient, task, trigger, revision), unique on
-- that key so every node may race to write it and one row stays; a group recipient's row is a
-- pending expansion the delivery worker replaces by its members' rows. Leased like the outboxes
-- (ix_notifications_due); the in-app list and unread count walk ix_notifications_inbox, the
-- digest worker ix_notifications_digest, the retention purge ix_notifications_purge. A NULL
-- channel state is undecided. trigger is a reserved word, hence trigger_kind.
-- People: the users the product knows per tenant, from their latest request (display name,
-- email claim, language, time zone, manager), with their notification preferences: email_prefs
-- is a JSON object trigger -> bool of what they set, a NULL digest is off.

-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_notifications (
    id                 VARCHAR2(36 CHAR)  NOT NULL,
    tenant_id          VARCHAR2(64 CHAR)  NOT NULL,
    task_id            VARCHAR2(36 CHAR)  NOT NULL,
    trigger_kind       VARCHAR2(32 CHAR)  NOT NULL,
    revision           NUMBER(19)         NOT NULL,
    recipient_provider VARCHAR2(64 CHAR)  NOT NULL,
    recipient_type     VARCHAR2(8 CHAR)   NOT NULL,
    recipient_id       VARCHAR2(255 CHAR) NOT NULL,
    actor_provider     VARCHAR2(64 CHAR),
    actor_type         VARCHAR2(8 CHAR),
    actor_id           VARCHAR2(255 CHAR),
    actor_display      VARCHAR2(256 CHAR),
    title              VARCHAR2(512 CHAR) NOT NULL,
    state              VARCHAR2(16 CHAR)  NOT NULL,
    email_state        VARCHAR2(16 CHAR),
    webhook_state      VARCHAR2(16 CHAR),
    attempts           NUMBER(10)         NOT NULL,
    available_at       TIMESTAMP(6)       NOT NULL,
    last_error         VARCHAR2(64 CHAR),
    lease_owner        VARCHAR2(128 CHAR),
    lease_token        VARCHAR2(36 CHAR),
    lease_generation   NUMBER(19)         NOT NULL,
    lease_expires_at   TIMESTAMP(6),
    occurred_at        TIMESTAMP(6)       NOT NULL,
    visible_at         TIMESTAMP(6),
    read_at            TIMESTAMP(6),
    updated_at         TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_notifications PRIMARY KEY (id),
    CONSTRAINT fk_notifications_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE UNIQUE INDEX ux_notifications_key ON user_task_notifications (tenant_id, task_id, trigger_kind, revision, recipient_type, recipient_provider, recipient_id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_notifications_due ON user_task_notifications (state, available_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_notifications_inbox ON user_task_notifications (tenant_id, recipient_provider, recipient_type, recipient_id, occurred_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_notifications_digest ON user_task_notifications (email_state, tenant_id, recipient_provider, recipient_type, recipient_id, occurred_at)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_notifications_purge ON user_task_notifications (tenant_id, occurred_at, id)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_notifications_task_fk ON user_task_notifications (task_id)
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TABLE user_task_people (
    tenant_id    VARCHAR2(64 CHAR)   NOT NULL,
    provider     VARCHAR2(64 CHAR)   NOT NULL,
    user_id      VARCHAR2(255 CHAR)  NOT NULL,
    display_name VARCHAR2(256 CHAR),
    email        VARCHAR2(320 CHAR),
    language     VARCHAR2(8 CHAR),
    time_zone    VARCHAR2(64 CHAR),
    manager      NUMBER(1)           NOT NULL,
    seen_at      TIMESTAMP(6)        NOT NULL,
    email_prefs  VARCHAR2(1024 CHAR),
    digest       VARCHAR2(8 CHAR),
    created_at   TIMESTAMP(6)        NOT NULL,
    updated_at   TIMESTAMP(6)        NOT NULL,
    CONSTRAINT pk_user_task_people PRIMARY KEY (tenant_id, provider, user_id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE INDEX ix_people_managers ON user_task_people (tenant_id, manager, user_id)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_people PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_notifications PURGE
-- +goose StatementEnd

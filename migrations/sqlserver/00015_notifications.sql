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
CREATE TABLE user_task_notifications (
    id                 NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    tenant_id          NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    task_id            NVARCHAR(36) COLLATE Latin1_General_100_BIN2  NOT NULL,
    trigger_kind       NVARCHAR(32) COLLATE Latin1_General_100_BIN2  NOT NULL,
    revision           BIGINT                                        NOT NULL,
    recipient_provider NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    recipient_type     NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    recipient_id       NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    actor_provider     NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    actor_type         NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    actor_id           NVARCHAR(255) COLLATE Latin1_General_100_BIN2,
    actor_display      NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    title              NVARCHAR(512) COLLATE Latin1_General_100_BIN2 NOT NULL,
    state              NVARCHAR(16) COLLATE Latin1_General_100_BIN2  NOT NULL,
    email_state        NVARCHAR(16) COLLATE Latin1_General_100_BIN2,
    webhook_state      NVARCHAR(16) COLLATE Latin1_General_100_BIN2,
    attempts           INT                                           NOT NULL,
    available_at       DATETIME2(6)                                  NOT NULL,
    last_error         NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    lease_owner        NVARCHAR(128) COLLATE Latin1_General_100_BIN2,
    lease_token        NVARCHAR(36) COLLATE Latin1_General_100_BIN2,
    lease_generation   BIGINT                                        NOT NULL,
    lease_expires_at   DATETIME2(6),
    occurred_at        DATETIME2(6)                                  NOT NULL,
    visible_at         DATETIME2(6),
    read_at            DATETIME2(6),
    updated_at         DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_notifications PRIMARY KEY (id),
    CONSTRAINT fk_notifications_task FOREIGN KEY (task_id) REFERENCES user_tasks (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ux_notifications_key ON user_task_notifications (tenant_id, task_id, trigger_kind, revision, recipient_type, recipient_provider, recipient_id);
CREATE INDEX ix_notifications_due ON user_task_notifications (state, available_at, id);
CREATE INDEX ix_notifications_inbox ON user_task_notifications (tenant_id, recipient_provider, recipient_type, recipient_id, occurred_at, id);
CREATE INDEX ix_notifications_digest ON user_task_notifications (email_state, tenant_id, recipient_provider, recipient_type, recipient_id, occurred_at);
CREATE INDEX ix_notifications_purge ON user_task_notifications (tenant_id, occurred_at, id);
CREATE INDEX ix_notifications_task_fk ON user_task_notifications (task_id);

CREATE TABLE user_task_people (
    tenant_id    NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    provider     NVARCHAR(64) COLLATE Latin1_General_100_BIN2   NOT NULL,
    user_id      NVARCHAR(255) COLLATE Latin1_General_100_BIN2  NOT NULL,
    display_name NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    email        NVARCHAR(320) COLLATE Latin1_General_100_BIN2,
    language     NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    time_zone    NVARCHAR(64) COLLATE Latin1_General_100_BIN2,
    manager      BIT                                            NOT NULL,
    seen_at      DATETIME2(6)                                   NOT NULL,
    email_prefs  NVARCHAR(1024) COLLATE Latin1_General_100_BIN2,
    digest       NVARCHAR(8) COLLATE Latin1_General_100_BIN2,
    created_at   DATETIME2(6)                                   NOT NULL,
    updated_at   DATETIME2(6)                                   NOT NULL,
    CONSTRAINT pk_user_task_people PRIMARY KEY (tenant_id, provider, user_id)
);
CREATE INDEX ix_people_managers ON user_task_people (tenant_id, manager, user_id);

-- +goose Down
DROP TABLE user_task_people;
DROP TABLE user_task_notifications;

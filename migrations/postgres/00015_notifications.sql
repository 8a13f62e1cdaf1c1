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
    id                 VARCHAR(36)                 NOT NULL,
    tenant_id          VARCHAR(64)                 NOT NULL,
    task_id            VARCHAR(36)                 NOT NULL,
    trigger_kind       VARCHAR(32)                 NOT NULL,
    revision           BIGINT                      NOT NULL,
    recipient_provider VARCHAR(64)                 NOT NULL,
    recipient_type     VARCHAR(8)                  NOT NULL,
    recipient_id       VARCHAR(255)                NOT NULL,
    actor_provider     VARCHAR(64),
    actor_type         VARCHAR(8),
    actor_id           VARCHAR(255),
    actor_display      VARCHAR(256),
    title              VARCHAR(512)                NOT NULL,
    state              VARCHAR(16)                 NOT NULL,
    email_state        VARCHAR(16),
    webhook_state      VARCHAR(16),
    attempts           INTEGER                     NOT NULL,
    available_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_error         VARCHAR(64),
    lease_owner        VARCHAR(128),
    lease_token        VARCHAR(36),
    lease_generation   BIGINT                      NOT NULL,
    lease_expires_at   TIMESTAMP(6) WITH TIME ZONE,
    occurred_at        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    visible_at         TIMESTAMP(6) WITH TIME ZONE,
    read_at            TIMESTAMP(6) WITH TIME ZONE,
    updated_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
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
    tenant_id    VARCHAR(64)                 NOT NULL,
    provider     VARCHAR(64)                 NOT NULL,
    user_id      VARCHAR(255)                NOT NULL,
    display_name VARCHAR(256),
    email        VARCHAR(320),
    language     VARCHAR(8),
    time_zone    VARCHAR(64),
    manager      BOOLEAN                     NOT NULL,
    seen_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    email_prefs  VARCHAR(1024),
    digest       VARCHAR(8),
    created_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_user_task_people PRIMARY KEY (tenant_id, provider, user_id)
);
CREATE INDEX ix_people_managers ON user_task_people (tenant_id, manager, user_id);

-- +goose Down
DROP TABLE user_task_people;
DROP TABLE user_task_notifications;

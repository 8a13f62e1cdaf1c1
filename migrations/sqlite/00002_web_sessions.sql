-- Browser sessions kept on the server (SPEC 5.4), so logout, "sign out everywhere", the absolute
-- expiry and the idle timeout end a session at once. The cookie holds a random 32-byte id; the
-- row is keyed by its SHA-256 hash (hex), never the id itself. Groups and permissions are JSON
-- arrays of strings; refresh_token_enc holds the sealed OIDC refresh token (a protected column).
-- idle_expires_at is last_seen_at plus idle_timeout_seconds, capped at expires_at; both expiry
-- columns are indexed for the sweep that deletes ended sessions.

-- +goose Up
CREATE TABLE user_task_web_sessions (
    id_hash              VARCHAR(64)  NOT NULL PRIMARY KEY,
    tenant_id            VARCHAR(64)  NOT NULL,
    subject_provider     VARCHAR(64)  NOT NULL,
    subject_id           VARCHAR(255) NOT NULL,
    display_name         VARCHAR(256),
    groups_json          TEXT         NOT NULL,
    permissions_json     TEXT         NOT NULL,
    is_manager           BOOLEAN      NOT NULL,
    via                  VARCHAR(8)   NOT NULL,
    refresh_token_enc    TEXT,
    time_zone            VARCHAR(64),
    idle_timeout_seconds INTEGER      NOT NULL,
    created_at           TIMESTAMP    NOT NULL,
    last_seen_at         TIMESTAMP    NOT NULL,
    refreshed_at         TIMESTAMP    NOT NULL,
    expires_at           TIMESTAMP    NOT NULL,
    idle_expires_at      TIMESTAMP    NOT NULL
);
CREATE INDEX ix_web_sessions_subject ON user_task_web_sessions (tenant_id, subject_provider, subject_id);
CREATE INDEX ix_web_sessions_expiry ON user_task_web_sessions (expires_at);
CREATE INDEX ix_web_sessions_idle ON user_task_web_sessions (idle_expires_at);

-- +goose Down
DROP TABLE user_task_web_sessions;

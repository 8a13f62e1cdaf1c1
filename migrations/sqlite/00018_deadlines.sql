-- Deadlines and escalation (issue 30, SPEC 10.4): a task's deadlines, written with its creation,
-- one row per (task, idx) where idx is the position in the projection's list. due_at is the
-- creation time plus `after`, or `at`; actions_json the validated actions. state is pending until
-- the due sweep settles the deadline (fired, or skipped when the task was taken or closed first),
-- and fired_at is when it did. The sweep finds due deadlines by walking ix_deadlines_due
-- (state, due_at, task_id, idx) from state = 'pending' in due order: an index range on every
-- dialect, partial indexes or not, which a settled row leaves for good, so the walk never
-- visits a fired deadline or scans open tasks. Deleted with their task (ON DELETE CASCADE).

-- +goose Up
CREATE TABLE user_task_deadlines (
    tenant_id    VARCHAR(64) NOT NULL,
    task_id      VARCHAR(36) NOT NULL REFERENCES user_tasks (id) ON DELETE CASCADE,
    idx          INTEGER     NOT NULL,
    kind         VARCHAR(16) NOT NULL,
    due_at       TIMESTAMP   NOT NULL,
    actions_json TEXT        NOT NULL,
    state        VARCHAR(16) NOT NULL,
    fired_at     TIMESTAMP,
    created_at   TIMESTAMP   NOT NULL,
    PRIMARY KEY (task_id, idx)
);
CREATE INDEX ix_deadlines_due ON user_task_deadlines (state, due_at, task_id, idx);

-- +goose Down
DROP TABLE user_task_deadlines;

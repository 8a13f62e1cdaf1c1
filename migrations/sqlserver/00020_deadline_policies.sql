-- Default deadline policies (issue 30 item 4): per tenant and workflow definition, the deadlines a
-- task gets when its projection declares none, as validated JSON in the projection field's shape.
-- A delete empties deadlines_json and keeps the row, so revision counts every put and delete
-- and never repeats. user_task_policy_audit holds one row per revision (put with its deadlines,
-- or delete), written in the same transaction and never updated; the audit page reads it
-- newest first along its primary key. The projection reads a policy by its primary key.

-- +goose Up
CREATE TABLE user_task_deadline_policies (
    tenant_id              NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    workflow_definition_id NVARCHAR(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    deadlines_json         NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    revision               INT                                           NOT NULL,
    changed_by_provider    NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    changed_by_type        NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    changed_by_id          NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    changed_by_display     NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    updated_at             DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_deadline_policies PRIMARY KEY (tenant_id, workflow_definition_id)
);

CREATE TABLE user_task_policy_audit (
    tenant_id              NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    workflow_definition_id NVARCHAR(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    revision               INT                                           NOT NULL,
    change_type            NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    deadlines_json         NVARCHAR(MAX) COLLATE Latin1_General_100_BIN2,
    actor_provider         NVARCHAR(64) COLLATE Latin1_General_100_BIN2  NOT NULL,
    actor_type             NVARCHAR(8) COLLATE Latin1_General_100_BIN2   NOT NULL,
    actor_id               NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    actor_display          NVARCHAR(256) COLLATE Latin1_General_100_BIN2,
    changed_at             DATETIME2(6)                                  NOT NULL,
    CONSTRAINT pk_user_task_policy_audit PRIMARY KEY (tenant_id, workflow_definition_id, revision)
);

-- +goose Down
DROP TABLE user_task_policy_audit;
DROP TABLE user_task_deadline_policies;

-- Default deadline policies (issue 30 item 4): per tenant and workflow definition, the deadlines a
-- task gets when its projection declares none, as validated JSON in the projection field's shape.
-- A delete empties deadlines_json and keeps the row, so revision counts every put and delete
-- and never repeats. user_task_policy_audit holds one row per revision (put with its deadlines,
-- or delete), written in the same transaction and never updated; the audit page reads it
-- newest first along its primary key. The projection reads a policy by its primary key.

-- +goose Up
CREATE TABLE user_task_deadline_policies (
    tenant_id              VARCHAR(64)  NOT NULL,
    workflow_definition_id VARCHAR(128) NOT NULL,
    deadlines_json         LONGTEXT,
    revision               INT          NOT NULL,
    changed_by_provider    VARCHAR(64)  NOT NULL,
    changed_by_type        VARCHAR(8)   NOT NULL,
    changed_by_id          VARCHAR(255) NOT NULL,
    changed_by_display     VARCHAR(256),
    updated_at             DATETIME(6)  NOT NULL,
    PRIMARY KEY (tenant_id, workflow_definition_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE user_task_policy_audit (
    tenant_id              VARCHAR(64)  NOT NULL,
    workflow_definition_id VARCHAR(128) NOT NULL,
    revision               INT          NOT NULL,
    change_type            VARCHAR(8)   NOT NULL,
    deadlines_json         LONGTEXT,
    actor_provider         VARCHAR(64)  NOT NULL,
    actor_type             VARCHAR(8)   NOT NULL,
    actor_id               VARCHAR(255) NOT NULL,
    actor_display          VARCHAR(256),
    changed_at             DATETIME(6)  NOT NULL,
    PRIMARY KEY (tenant_id, workflow_definition_id, revision)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE user_task_policy_audit;
DROP TABLE user_task_deadline_policies;

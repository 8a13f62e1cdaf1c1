-- Default deadline policies (issue 30 item 4): per tenant and workflow definition, the deadlines a
-- task gets when its projection declares none, as validated JSON in the projection field's shape.
-- A delete empties deadlines_json and keeps the row, so revision counts every put and delete
-- and never repeats. user_task_policy_audit holds one row per revision (put with its deadlines,
-- or delete), written in the same transaction and never updated; the audit page reads it
-- newest first along its primary key. The projection reads a policy by its primary key.
-- As in 00001: no transaction, one statement per goose block without a trailing semicolon.

-- +goose NO TRANSACTION
-- +goose Up
-- +goose StatementBegin
CREATE TABLE user_task_deadline_policies (
    tenant_id              VARCHAR2(64 CHAR)  NOT NULL,
    workflow_definition_id VARCHAR2(128 CHAR) NOT NULL,
    deadlines_json         CLOB,
    revision               NUMBER(10)         NOT NULL,
    changed_by_provider    VARCHAR2(64 CHAR)  NOT NULL,
    changed_by_type        VARCHAR2(8 CHAR)   NOT NULL,
    changed_by_id          VARCHAR2(255 CHAR) NOT NULL,
    changed_by_display     VARCHAR2(256 CHAR),
    updated_at             TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_deadline_policies PRIMARY KEY (tenant_id, workflow_definition_id)
)
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TABLE user_task_policy_audit (
    tenant_id              VARCHAR2(64 CHAR)  NOT NULL,
    workflow_definition_id VARCHAR2(128 CHAR) NOT NULL,
    revision               NUMBER(10)         NOT NULL,
    change_type            VARCHAR2(8 CHAR)   NOT NULL,
    deadlines_json         CLOB,
    actor_provider         VARCHAR2(64 CHAR)  NOT NULL,
    actor_type             VARCHAR2(8 CHAR)   NOT NULL,
    actor_id               VARCHAR2(255 CHAR) NOT NULL,
    actor_display          VARCHAR2(256 CHAR),
    changed_at             TIMESTAMP(6)       NOT NULL,
    CONSTRAINT pk_user_task_policy_audit PRIMARY KEY (tenant_id, workflow_definition_id, revision)
)
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE user_task_policy_audit PURGE
-- +goose StatementEnd
-- +goose StatementBegin
DROP TABLE user_task_deadline_policies PURGE
-- +goose StatementEnd

-- The available list's candidate test on PostgreSQL (issue 27): a long read of the list (a common
-- needle's window of 1,000 rows) tests the walk of the Available tasks against the person's
-- candidate task ids read once from ix_candidates_lookup, and the store first counts those
-- rows to choose the walk or the candidates-driven read (repository/
-- task_query_available_postgres.go). Both name the candidate's source, which the index did not
-- hold: PostgreSQL read the table row of every candidate row for it (13,000 for the bench's
-- user in five groups: 14 ms against 3 ms from the index alone at the scale target;
-- docs/query-plans.md, "The available list by the list's length"). Appended after task_id, the
-- source changes no seek and no order the other reads take. The schema stays identical on
-- every dialect (migrations/logical). Rebuilt under the same name.

-- +goose Up
DROP INDEX ix_candidates_lookup;
CREATE INDEX ix_candidates_lookup ON user_task_candidates (tenant_id, provider, participant_type, participant_id, task_status, task_id, source);

-- +goose Down
DROP INDEX ix_candidates_lookup;
CREATE INDEX ix_candidates_lookup ON user_task_candidates (tenant_id, provider, participant_type, participant_id, task_status, task_id);

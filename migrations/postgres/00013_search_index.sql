-- Substring search served by an index (issue 27 item 1). A list's search is a case-insensitive
-- literal substring of search_text (SPEC 5.1), tested by `LIKE '%…%'`, which no B-tree serves.
-- pg_trgm's GIN operator class serves LIKE itself: the index yields the rows holding every
-- trigram of the pattern and PostgreSQL rechecks the LIKE on them, so answers do not change.
-- It has no tenant column (a combined index needs btree_gin, which is not assumed): the tenant
-- is filtered on the rows the index finds. repository/task_query_search.go decides when the
-- list is driven from it (a rare needle) and when the sort index's walk stays (a common one).
-- pg_trgm ships with PostgreSQL (contrib) and is trusted since 13, so a role with CREATE on the
-- database may create it; a role that may not gets a start-up error naming the fix
-- (docs/deployment.md): a superuser runs CREATE EXTENSION pg_trgm once, and this IF NOT EXISTS
-- then passes.

-- +goose Up
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX ix_tasks_search ON user_tasks USING gin (search_text gin_trgm_ops);

-- +goose Down
DROP INDEX ix_tasks_search;

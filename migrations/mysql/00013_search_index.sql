-- Substring search served by an index (issue 27 item 1) is built on SQLite (FTS5 trigram
-- table) and PostgreSQL (pg_trgm GIN index) only. This dialect keeps the list's
-- `search_text LIKE '%…%'` test and its schema does not change: the migration exists so that
-- every dialect's schema version stays the same number (logical.Version). docs/query-plans.md
-- says why (MariaDB: the options measured; SQL Server and Oracle: not run here).

-- +goose Up

-- +goose Down

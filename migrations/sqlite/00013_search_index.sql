-- Substring search served by an index (issue 27 item 1). A list's search is a case-insensitive
-- literal substring of search_text (SPEC 5.1), which `LIKE '%…%'` tests row by row: no B-tree
-- serves it. An FTS5 table with the trigram tokenizer finds the rows holding every trigram of a
-- needle of 3+ characters; the list keeps its LIKE as the exact test (repository/task_query_search.go).
-- user_tasks has a VARCHAR primary key, so its rowid is not stable across VACUUM: the FTS rows
-- are keyed by user_task_search_rows (an INTEGER PRIMARY KEY, which VACUUM keeps), which maps
-- each to its task id and tenant. The FTS table is contentless (the text lives in user_tasks
-- once) with contentless_delete, so a row can be deleted by its rowid alone.
-- Triggers keep both in the writing transaction, whoever writes user_tasks (the store, the
-- seed, a restore): an update fires only when search_text changes, so a claim or a status
-- change costs nothing here. The Up fills the index from the tasks already stored.
-- The binary needs FTS5 compiled in (build tag sqlite_fts5): migrations.Up checks it first.

-- +goose Up
CREATE TABLE user_task_search_rows (
    id        INTEGER     PRIMARY KEY,
    task_id   VARCHAR(36) NOT NULL UNIQUE,
    tenant_id VARCHAR(64) NOT NULL
);
CREATE VIRTUAL TABLE user_task_search USING fts5(search_text, content='', contentless_delete=1, tokenize='trigram');
INSERT INTO user_task_search_rows (task_id, tenant_id) SELECT id, tenant_id FROM user_tasks;
INSERT INTO user_task_search (rowid, search_text)
    SELECT r.id, t.search_text FROM user_task_search_rows r JOIN user_tasks t ON t.id = r.task_id;
-- +goose StatementBegin
CREATE TRIGGER tr_tasks_search_insert AFTER INSERT ON user_tasks BEGIN
    INSERT INTO user_task_search_rows (task_id, tenant_id) VALUES (new.id, new.tenant_id);
    INSERT INTO user_task_search (rowid, search_text)
        VALUES ((SELECT id FROM user_task_search_rows WHERE task_id = new.id), new.search_text);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tr_tasks_search_update AFTER UPDATE OF search_text ON user_tasks
WHEN old.search_text IS NOT new.search_text BEGIN
    DELETE FROM user_task_search WHERE rowid = (SELECT id FROM user_task_search_rows WHERE task_id = old.id);
    INSERT INTO user_task_search (rowid, search_text)
        VALUES ((SELECT id FROM user_task_search_rows WHERE task_id = new.id), new.search_text);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tr_tasks_search_delete AFTER DELETE ON user_tasks BEGIN
    DELETE FROM user_task_search WHERE rowid = (SELECT id FROM user_task_search_rows WHERE task_id = old.id);
    DELETE FROM user_task_search_rows WHERE task_id = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER tr_tasks_search_delete;
DROP TRIGGER tr_tasks_search_update;
DROP TRIGGER tr_tasks_search_insert;
DROP TABLE user_task_search;
DROP TABLE user_task_search_rows;

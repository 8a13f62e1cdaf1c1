package repository

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mattn/go-sqlite3"
)

// privateSQLite connects to the SQLite file at path through dsn, creating the file (and its
// folder) for the owner only on the first connection (createSQLiteFile).
type privateSQLite struct{ path, dsn string }

func (c privateSQLite) Connect(context.Context) (driver.Conn, error) {
	if err := createSQLiteFile(c.path); err != nil {
		return nil, err
	}
	return c.Driver().Open(c.dsn)
}

func (privateSQLite) Driver() driver.Driver { return &sqlite3.SQLiteDriver{} }

// createSQLiteFile makes sure the database file at path exists before SQLite opens it, created
// for the owner only: the folder 0700 when it has to be made, the file 0600 (privateFile).
func createSQLiteFile(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("repository: sqlite folder: %w", err)
		}
	}
	return privateFile(path)
}

// privateFile creates the empty file path with mode 0600 unless it exists. SQLite would create
// a database with 0644 less the umask, readable by every local user, and gives the -wal, -shm
// and journal files it creates beside it the database file's mode, so all of them stay private.
// An empty file is an empty database. An existing file keeps the mode it has (an operator may
// have chosen a group on purpose).
func privateFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil
	case err != nil:
		return fmt.Errorf("repository: sqlite file: %w", err)
	}
	return f.Close()
}

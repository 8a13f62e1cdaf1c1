package repository_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// SQLite-specific engineering: what the shared contract cannot express.

func TestSQLiteRefusesMemoryDatabases(t *testing.T) {
	for _, u := range []string{"sqlite::memory:", "sqlite:file::memory:?cache=shared", "sqlite:file:x?mode=memory"} {
		_, err := repository.Open(context.Background(), repository.Config{URL: u, Keys: testfactory.Keys()})
		if err == nil {
			t.Errorf("%s was accepted", u)
		}
	}
	if _, err := repository.ParseURL("sqlite::memory:"); !errors.Is(err, repository.ErrMemoryDatabase) {
		t.Fatalf("got %v, want ErrMemoryDatabase", err)
	}
}

// The store's pools and the tools' handle (OpenSQL) open the file with the same settings.
func TestSQLitePragmas(t *testing.T) {
	want := map[string]string{"journal_mode": "wal", "foreign_keys": "1", "synchronous": "2", "busy_timeout": "5000"}
	t.Run("Store", func(t *testing.T) {
		s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		checkPragmas(t, db, want)
	})
	t.Run("OpenSQL", func(t *testing.T) {
		db, _, err := repository.OpenSQL("sqlite:" + filepath.Join(t.TempDir(), "tool.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		checkPragmas(t, db, want)
	})
}

func checkPragmas(t *testing.T, db *sql.DB, want map[string]string) {
	t.Helper()
	for pragma, want := range want {
		var got string
		if err := db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

// A writer outside the store (another process, say) holds the write lock: the store's write
// waits at most its deadline, reports database-busy, and leaves the aggregate untouched.
func TestSQLiteBusyIsDatabaseBusyWithNothingWritten(t *testing.T) {
	u := testfactory.Database(t, testfactory.SQLite)
	path := strings.TrimPrefix(u, "sqlite:")
	s := testfactory.OpenSQL(t, u, &testfactory.StoreOpts{WriteTimeout: 400 * time.Millisecond, BusyTimeout: 100 * time.Millisecond})
	task := storetest.CreateTask(t, s, storetest.TaskOpts{})

	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=100")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = s.Mutate(context.Background(), "t1", task.ID, "", storetest.BumpAt(task.Revision, "", ""))
	if !errors.Is(err, models.ErrBusy) || models.ErrorCode(err) != models.CodeDatabaseBusy {
		t.Fatalf("got %v, want database-busy", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("waited %v for a busy database", waited)
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(context.Background(), "t1", task.ID)
	if err != nil || got.Revision != task.Revision {
		t.Fatalf("after a busy write: revision %d, %v; want %d untouched", got.Revision, err, task.Revision)
	}
	if _, err := s.Mutate(context.Background(), "t1", task.ID, "", storetest.BumpAt(task.Revision, "", "")); err != nil {
		t.Fatalf("write after the lock was released: %v", err)
	}
}

// Writers of one store queue for the single writer connection in Go: many concurrent writes
// all succeed even with a busy timeout far shorter than the queue, and readers are not blocked
// by an open write transaction (WAL).
func TestSQLiteWritersQueueInGo(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), &testfactory.StoreOpts{BusyTimeout: 10 * time.Millisecond})
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := storetest.NewTask(storetest.TaskOpts{}, time.Time{})
			_, _, err := s.Create(context.Background(), "t1", c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
				c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
				return c, nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("queued writer failed: %v", err)
		}
	}
}

package handlers_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
	"usertasks/repository"
)

// Database faults at the HTTP surface (issue 14, docs/reliability.md "Faults").

// faultReady asks /readyz; it returns the status and the reason.
func faultReady(t *testing.T, env *handlerstest.Env) (int, string) {
	t.Helper()
	res, err := http.Get(env.URL + "/readyz")
	if err != nil {
		t.Fatalf("readyz: %v", err)
	}
	defer res.Body.Close()
	var body struct{ Status, Reason string }
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("readyz body: %v", err)
	}
	return res.StatusCode, body.Reason
}

// faultCompleteBody completes a task with a form-less action.
func faultCompleteBody(revision int, opID string) map[string]any {
	return map[string]any{"expectedRevision": revision, "operationId": opID, "actionKey": "Complete"}
}

// faultTables are the rows a command writes besides the task's own.
var faultTables = []string{"user_task_events", "user_task_operations", "user_task_resumptions"}

// faultRows counts the task's rows in faultTables.
func faultRows(t *testing.T, env *handlerstest.Env, task models.Task) []int {
	t.Helper()
	var n []int
	for _, table := range faultTables {
		n = append(n, env.Count(t, "SELECT COUNT(*) FROM "+table+" WHERE task_id = ?", task.ID))
	}
	return n
}

// wantNothingWritten checks that the refused command left the task and its rows (rowsBefore,
// from faultRows) as they were.
func wantNothingWritten(t *testing.T, env *handlerstest.Env, before models.Task, rowsBefore []int) {
	t.Helper()
	got := env.Get(t, before)
	if got.Revision != before.Revision || got.Status != before.Status {
		t.Fatalf("task = revision %d, %s; want untouched (%d, %s)", got.Revision, got.Status, before.Revision, before.Status)
	}
	if rows := faultRows(t, env, before); !slices.Equal(rows, rowsBefore) {
		t.Fatalf("rows in %v after the refused command: %v, want %v", faultTables, rows, rowsBefore)
	}
}

// TestFaultDatabaseUnreachable: the database server cannot be reached (a TCP proxy the test
// cuts; the server itself keeps running). /readyz answers 503 "database unreachable", a command
// and a read answer 503 database-busy with Retry-After and write nothing, and once the network
// returns the same process answers everything again.
func TestFaultDatabaseUnreachable(t *testing.T) {
	for name, start := range map[string]func(*testing.T, *handlerstest.Options) *handlerstest.Env{
		"PostgreSQL": handlerstest.Postgres, "MariaDB": handlerstest.MySQL,
	} {
		t.Run(name, func(t *testing.T) {
			env := start(t, &handlerstest.Options{Proxied: true, WriteTimeout: 3 * time.Second})
			ann := handlerstest.Worker("acme", "ann")
			task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
			rows := faultRows(t, env, task)
			if status, _ := faultReady(t, env); status != http.StatusOK {
				t.Fatalf("readyz %d before the fault, want 200", status)
			}

			env.Proxy.Cut()
			if status, reason := faultReady(t, env); status != http.StatusServiceUnavailable || reason != "database unreachable" {
				t.Fatalf("readyz %d %q while the database is unreachable, want 503 database unreachable", status, reason)
			}
			for _, resp := range []handlerstest.Response{
				command(t, env, ann, task.ID, "complete", faultCompleteBody(1, "complete-1")),
				env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, ann)}),
			} {
				resp.WantProblem(t, http.StatusServiceUnavailable, "database-busy")
				if got := resp.Header.Get("Retry-After"); got == "" {
					t.Errorf("503 without Retry-After")
				}
			}
			if strings.Contains(env.Logs.String(), "internal error") {
				t.Errorf("an unreachable database was logged as an internal error:\n%s", env.Logs.String())
			}

			env.Proxy.Restore()
			if status, reason := faultReady(t, env); status != http.StatusOK {
				t.Fatalf("readyz %d %q after the database returned, want 200", status, reason)
			}
			wantNothingWritten(t, env, task, rows)
			r := decodeResult(t, command(t, env, ann, task.ID, "complete", faultCompleteBody(1, "complete-1")), http.StatusAccepted)
			if r.Revision != 2 || r.Task.Status != "Completing" {
				t.Fatalf("the command after recovery: %+v, want revision 2, Completing", r)
			}
			if n := env.Count(t, "SELECT COUNT(*) FROM user_task_resumptions WHERE task_id = ?", task.ID); n != 1 {
				t.Fatalf("%d outbox rows after the completion, want 1", n)
			}
		})
	}
}

// faultHolderEnv names the SQLite file TestFaultSQLiteLockHolder holds the write lock on.
const faultHolderEnv = "USERTASKS_FAULT_HOLD_SQLITE"

// TestFaultSQLiteLockHolder is the other process of TestFaultSQLiteWriterHeldByAnotherProcess:
// run with faultHolderEnv set, it begins an IMMEDIATE transaction on the file, changes the
// task's title inside it, says "held" and waits to be killed. Otherwise it is skipped.
func TestFaultSQLiteLockHolder(t *testing.T) {
	path, taskID := os.Getenv(faultHolderEnv), os.Getenv(faultHolderEnv+"_TASK")
	if path == "" {
		t.Skip("the lock-holding process of TestFaultSQLiteWriterHeldByAnotherProcess")
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "UPDATE user_tasks SET title = 'half-written' WHERE id = ?", taskID); err != nil {
		t.Fatal(err)
	}
	fmt.Println("held")
	io.Copy(io.Discard, os.Stdin) // until killed
}

// TestFaultSQLiteWriterHeldByAnotherProcess: another process holds SQLite's write lock (BEGIN
// IMMEDIATE, with an uncommitted change) on the server's file. A command answers 503
// database-busy with Retry-After while the lock is still held — after the configured write
// timeout, not when the lock goes — and writes nothing; once the other process is gone
// (killed, its change never committed), the same command succeeds.
func TestFaultSQLiteWriterHeldByAnotherProcess(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{WriteTimeout: 500 * time.Millisecond, BusyTimeout: 100 * time.Millisecond})
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Assignee: "ann"})
	rows := faultRows(t, env, task)
	target, err := repository.ParseURL(env.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}

	holder := exec.Command(os.Args[0], "-test.run=^TestFaultSQLiteLockHolder$", "-test.v")
	holder.Env = append(os.Environ(), faultHolderEnv+"="+target.DSN, faultHolderEnv+"_TASK="+task.ID)
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	kill := func() {
		if !killed {
			killed = true
			holder.Process.Kill()
			holder.Wait()
		}
	}
	defer kill()
	if !faultWaitFor(stdout, "held") {
		t.Fatal("the other process did not take the write lock")
	}

	resp := command(t, env, ann, task.ID, "complete", faultCompleteBody(1, "complete-1"))
	holding := holder.Process.Signal(syscall.Signal(0)) == nil // alive: the 503 came while the lock was held
	resp.WantProblem(t, http.StatusServiceUnavailable, "database-busy")
	if got, want := resp.Header.Get("Retry-After"), "1"; got != want {
		t.Errorf("Retry-After = %q, want %q", got, want)
	}
	if !holding {
		t.Fatal("the other process ended before the command was answered")
	}

	kill()
	wantNothingWritten(t, env, task, rows)
	if got := env.Get(t, task); got.Title == "half-written" {
		t.Fatal("the other process's uncommitted change is visible")
	}
	r := decodeResult(t, command(t, env, ann, task.ID, "complete", faultCompleteBody(1, "complete-1")), http.StatusAccepted)
	if r.Revision != 2 || r.Task.Status != "Completing" {
		t.Fatalf("the command after the lock was released: %+v, want revision 2, Completing", r)
	}
}

// faultWaitFor reads lines from r until one is want (true) or r ends (false).
func faultWaitFor(r io.Reader, want string) bool {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == want {
			go io.Copy(io.Discard, r) // the rest of the test binary's output
			return true
		}
	}
	return false
}

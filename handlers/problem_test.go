package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
	"usertasks/repository"
)

// TestProblems covers the answers of the one error handler that no command test reaches:
// echo's own errors, internal errors and a busy database.
func TestProblems(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	max := handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{Assignee: "max"})
	missing := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(models.NewID()), Token: env.Token(t, max)})
	missing.WantProblem(t, http.StatusNotFound, "not-found")

	t.Run("ErrNotFound/UnknownRoute", func(t *testing.T) {
		for _, path := range []string{"/api/v1/nothing-here", "/api/v1/user-tasks/" + task.ID + "/frobnicate", "/nope"} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Token: env.Token(t, max), Contract: handlerstest.Outside})
			resp.WantProblem(t, http.StatusNotFound, "not-found")
			if !bytes.Equal(resp.Body, missing.Body) {
				t.Errorf("%s: 404 body differs from a missing task's:\n%s\n%s", path, resp.Body, missing.Body)
			}
		}
	})
	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, max), Contract: handlerstest.Outside})
		resp.WantProblem(t, http.StatusMethodNotAllowed, "method-not-allowed")
	})
	t.Run("ErrInternal", func(t *testing.T) {
		corrupt := env.Task(t, handlerstest.TaskOpts{Assignee: "max", Instructions: "protected words"})
		env.Exec(t, "UPDATE user_tasks SET actions_json = ? WHERE id = ?", "not json", corrupt.ID)
		token := env.Token(t, max)
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(corrupt.ID), Token: token})
		p := resp.WantProblem(t, http.StatusInternalServerError, "internal-error")
		if strings.Contains(string(resp.Body), corrupt.ID) || strings.Contains(p.Detail, "corrupt") {
			t.Errorf("500 body tells internals: %s", resp.Body)
		}
		requestID := resp.Header.Get("X-Request-Id")
		var logged []map[string]any
		for line := range strings.SplitSeq(env.Logs.String(), "\n") {
			var entry map[string]any
			if json.Unmarshal([]byte(line), &entry) == nil && entry["msg"] == "internal error" {
				logged = append(logged, entry)
			}
		}
		if len(logged) != 1 {
			t.Fatalf("internal errors logged = %d, want 1:\n%s", len(logged), env.Logs.String())
		}
		if got := logged[0]["request_id"]; requestID == "" || got != requestID {
			t.Errorf("logged request_id = %v, want the answer's X-Request-Id %q", got, requestID)
		}
		for _, secret := range []string{token, "protected words"} {
			if strings.Contains(env.Logs.String(), secret) {
				t.Errorf("the log holds %q", secret)
			}
		}
	})
}

// TestDatabaseBusy: a write that cannot get the SQLite lock in time is 503 database-busy with
// Retry-After, and nothing is written.
func TestDatabaseBusy(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{WriteTimeout: 300 * time.Millisecond, BusyTimeout: 100 * time.Millisecond})
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})

	db, _, err := repository.OpenSQL(env.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatalf("hold the write lock: %v", err)
	}
	resp := command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1})
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	resp.WantProblem(t, http.StatusServiceUnavailable, "database-busy")
	if got, want := resp.Header.Get("Retry-After"), "1"; got != want {
		t.Errorf("Retry-After = %q, want %q", got, want)
	}
	if got := env.Get(t, task); got.Revision != 1 || got.Status != models.StatusAvailable {
		t.Errorf("task = revision %d, %s; want untouched (1, Available)", got.Revision, got.Status)
	}
}

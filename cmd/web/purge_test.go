package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
)

// runWeb runs the binary's run with args and the variables, returning the exit code and output.
func runWeb(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, env(vars), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPurgeCommand(t *testing.T) {
	ctx := context.Background()
	url := testfactory.Database(t, testfactory.SQLite)
	clock := &testfactory.Clock{}
	s := testfactory.OpenSQL(t, url, &testfactory.StoreOpts{Clock: clock.Now})
	closed := testfactory.Finalize(ctx, t, s, testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}}))
	open := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	other := testfactory.Finalize(ctx, t, s, testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Tenant: "t2"}))
	// The command reads the database's own clock: age the closed tasks by hand.
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().UTC().Add(-100 * 24 * time.Hour)
	if _, err := db.Exec("UPDATE user_tasks SET completed_at = ? WHERE status = 'Cancelled'", old); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"USERTASKS_DATABASE_URL": url}

	t.Run("DryRunPrintsAndKeeps", func(t *testing.T) {
		code, out, errOut := runWeb(t, vars, "purge", "--dry-run", "--older-than", "2160h")
		if code != 0 || !strings.Contains(out, "dry run: nothing is deleted") ||
			!strings.Contains(out, "tenant t1: would purge tasks=1 events=") || !strings.Contains(out, "tenant t2: would purge tasks=1") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if _, err := s.Get(ctx, "t1", closed.ID); err != nil {
			t.Fatalf("dry run deleted: %v", err)
		}
	})
	t.Run("WithoutAgeKeepsTerminalTasks", func(t *testing.T) {
		code, out, errOut := runWeb(t, vars, "purge")
		if code != 0 || !strings.Contains(out, "terminal tasks: kept") || !strings.Contains(out, "total: purged tasks=0") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	})
	t.Run("OneTenant", func(t *testing.T) {
		code, out, errOut := runWeb(t, vars, "purge", "--tenant", "t1", "--older-than", "2160h", "--page-size", "1")
		if code != 0 || !strings.Contains(out, "tenant t1: purged tasks=1") || strings.Contains(out, "tenant t2") ||
			!strings.Contains(errOut, "purge: tenant t1: tasks=1") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if _, err := s.Get(ctx, "t1", closed.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("closed task: %v", err)
		}
		if _, err := s.Get(ctx, "t1", open.ID); err != nil {
			t.Fatalf("open task: %v", err)
		}
		if _, err := s.Get(ctx, "t2", other.ID); err != nil {
			t.Fatalf("other tenant's task: %v", err)
		}
		runs, err := s.WorkerRuns(ctx, "t1", models.WorkerPurge, 1)
		if err != nil || len(runs) != 1 || runs[0].Counts["tasks"] != 1 {
			t.Fatalf("recorded run %+v, %v", runs, err)
		}
	})
	t.Run("EnvironmentAge", func(t *testing.T) {
		withAge := map[string]string{"USERTASKS_DATABASE_URL": url, "USERTASKS_RETENTION_TERMINAL_AGE": "2160h"}
		code, out, errOut := runWeb(t, withAge, "purge")
		if code != 0 || !strings.Contains(out, "tenant t2: purged tasks=1") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	})
	t.Run("BusyWhileAnotherNodePurges", func(t *testing.T) {
		lease, err := s.AcquireLease(ctx, "purge", "other-node", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		defer s.ReleaseLease(ctx, "purge", lease)
		code, _, errOut := runWeb(t, vars, "purge")
		if code != 1 || !strings.Contains(errOut, "another node is purging") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	})
	t.Run("BadInvocations", func(t *testing.T) {
		for _, args := range [][]string{
			{"purge", "--older-than", "90"},
			{"purge", "--older-than", "5m"},
			{"purge", "--older-than", "-2160h"},
			{"purge", "--page-size", "0"},
			{"purge", "--page-size", "501"},
			{"purge", "--tenant", "t1\x00"},
			{"purge", "--tenant", strings.Repeat("ä", 40)},
			{"purge", "extra"},
			{"purge", "--bogus"},
		} {
			code, _, errOut := runWeb(t, vars, args...)
			// One line of reason first, then the command's usage.
			reason, rest, _ := strings.Cut(errOut, "\n")
			if code != 2 || !strings.HasPrefix(reason, "web: ") || !strings.HasPrefix(rest, "usage: web purge") {
				t.Errorf("%q: exit %d, %q", args, code, errOut)
			}
		}
		if code, _, errOut := runWeb(t, map[string]string{"USERTASKS_DATABASE_URL": url, "USERTASKS_RETENTION_TERMINAL_AGE": "10s"}, "purge"); code == 0 {
			t.Errorf("a 10s retention age was accepted: %s", errOut)
		}
	})
	t.Run("Help", func(t *testing.T) {
		code, _, errOut := runWeb(t, vars, "purge", "--help")
		if code != 0 || !strings.Contains(errOut, "--dry-run") || !strings.Contains(errOut, "Exit status") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	})
}

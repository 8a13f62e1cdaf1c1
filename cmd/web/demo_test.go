package main

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"usertasks/demo"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/tasks"
)

// demoEnv is a dev-mode environment on a SQLite file of its own, listening on a free port.
func demoEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	url := "sqlite:" + filepath.Join(t.TempDir(), "usertasks.db")
	return map[string]string{"USERTASKS_DEV": "true", "USERTASKS_DATABASE_URL": url, "USERTASKS_LISTEN_ADDR": addr}, url
}

// demoTask finds the demo task with reference ref in acme, as the store holds it.
func demoTask(t *testing.T, vars map[string]string, url, ref string) (models.Task, func()) {
	t.Helper()
	ctx := context.Background()
	cfg, err := loadConfig(env(vars), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.requireKeys(); err != nil {
		t.Fatal(err)
	}
	st, err := repository.Open(ctx, repository.Config{URL: url, Keys: cfg.Keys})
	if err != nil {
		t.Fatal(err)
	}
	page, err := st.Query(ctx, models.TaskFilter{Tenant: "acme", Scope: models.ScopeAll, Reference: ref, Limit: 5,
		Actor: models.Actor{Tenant: "acme", Manager: true}})
	if err != nil || len(page.Items) != 1 {
		st.Close()
		t.Fatalf("%s: %d tasks, %v", ref, len(page.Items), err)
	}
	task, err := st.Get(ctx, "acme", page.Items[0].ID)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return task, func() { st.Close() }
}

// TestDemoReset: `web demo reset` seeds the demo; a task completed afterwards is open again
// after a second reset (the guest journey of TRV-88 can be walked again).
func TestDemoReset(t *testing.T) {
	vars, url := demoEnv(t)
	if code, out, errOut := runCLI(t, vars, "demo", "reset"); code != exitOK || !strings.Contains(out, "seeded") {
		t.Fatalf("first reset: %d %q %q", code, out, errOut)
	}

	task, closeStore := demoTask(t, vars, url, "TRV-88")
	if task.Status != models.StatusAvailable {
		t.Fatalf("TRV-88 after the reset: %s, want Available", task.Status)
	}
	ctx := context.Background()
	var ben models.Actor
	for _, u := range demo.Users {
		if u.ID == "ben" {
			ben = u.Actor()
		}
	}
	func() {
		defer closeStore()
		cfg, _ := loadConfig(env(vars), false)
		_ = cfg.requireKeys()
		st, err := repository.Open(ctx, repository.Config{URL: url, Keys: cfg.Keys})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		svc := tasks.New(st, tasks.Options{})
		res, err := svc.Claim(ctx, ben, task.ID, tasks.Common{ExpectedRevision: task.Revision, OperationID: models.NewID()})
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		if _, err := svc.Complete(ctx, ben, task.ID, tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: res.Revision, OperationID: models.NewID()}, ActionKey: "Approve"}); err != nil {
			t.Fatalf("complete: %v", err)
		}
	}()
	if done, closeStore := demoTask(t, vars, url, "TRV-88"); done.Status.IsOpen() {
		closeStore()
		t.Fatalf("TRV-88 after completing: %s, want it closed or closing", done.Status)
	} else {
		closeStore()
	}

	if code, out, errOut := runCLI(t, vars, "demo", "reset"); code != exitOK {
		t.Fatalf("second reset: %d %q %q", code, out, errOut)
	}
	again, closeStore := demoTask(t, vars, url, "TRV-88")
	defer closeStore()
	if again.Status != models.StatusAvailable || again.ID == task.ID {
		t.Fatalf("TRV-88 after the second reset: %s (id %s, before %s), want a fresh Available task", again.Status, again.ID, task.ID)
	}
}

// TestDemoResetRefuses: outside dev mode, on a server that is running, and with bad arguments.
func TestDemoResetRefuses(t *testing.T) {
	vars, _ := demoEnv(t)
	prod := map[string]string{"USERTASKS_DATABASE_URL": vars["USERTASKS_DATABASE_URL"]}
	if code, _, errOut := runCLI(t, prod, "demo", "reset"); code != exitFailure || !strings.Contains(errOut, "dev mode only") {
		t.Errorf("outside dev mode: %d %q", code, errOut)
	}
	ln, err := net.Listen("tcp", vars["USERTASKS_LISTEN_ADDR"])
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if code, _, errOut := runCLI(t, vars, "demo", "reset"); code != exitFailure || !strings.Contains(errOut, "stop it") {
		t.Errorf("with a server running: %d %q", code, errOut)
	}
	for _, args := range [][]string{{"demo"}, {"demo", "wipe"}, {"demo", "reset", "now"}} {
		if code, _, errOut := runCLI(t, vars, args...); code != exitUsage {
			t.Errorf("%v: %d %q, want 2", args, code, errOut)
		}
	}
}

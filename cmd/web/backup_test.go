package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/testfactory"
)

// A backup of a live database taken while goroutines write through the store opens, checks
// as current (`web migrate status`: nothing pending), audits clean (`web audit` exits 0) and
// every task in it loads through the store, protected fields included.
func TestBackupOfLiveDatabase(t *testing.T) {
	ctx := context.Background()
	spec, err := keyring.Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	url := testfactory.Database(t, testfactory.SQLite)
	s := testfactory.Open(t, url, &testfactory.StoreOpts{Keys: keys})
	for i := 0; i < 20; i++ {
		testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}, Instructions: "secret instructions", Data: `{"n":1}`})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var written atomic.Int64
	for w := 0; w < 3; w++ {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				task := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Tenant: fmt.Sprintf("t%d", w+1), Candidates: []string{"ann"},
					Instructions: "during backup", Data: `{"n":2}`})
				if written.Add(1)%3 == 0 {
					testfactory.Finalize(ctx, t, s, task)
				}
			}
		})
	}
	for written.Load() < 10 {
		time.Sleep(5 * time.Millisecond)
	}
	dest := filepath.Join(t.TempDir(), "backups", "ut backup ä.db")
	if err := os.MkdirAll(filepath.Dir(dest), 0o750); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"USERTASKS_DATABASE_URL": url}
	code, out, errOut := runWeb(t, vars, "backup", "--to", dest)
	close(stop)
	wg.Wait()
	if code != 0 || !strings.Contains(out, "integrity ok") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".*tmp-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}

	copyStore := testfactory.Open(t, "sqlite:"+dest, &testfactory.StoreOpts{Keys: keys})
	if err := copyStore.CheckSchema(ctx); err != nil {
		t.Fatalf("copy schema: %v", err)
	}
	tenants, err := copyStore.Tenants(ctx)
	if err != nil || len(tenants) == 0 {
		t.Fatalf("tenants %v, %v", tenants, err)
	}
	loaded := 0
	for _, tenant := range tenants {
		page, err := copyStore.Query(ctx, models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll,
			Actor: models.Actor{Tenant: tenant, Manager: true}, Limit: models.MaxPageSize, IncludeTotal: true})
		if err != nil {
			t.Fatal(err)
		}
		if *page.Total > models.MaxPageSize {
			t.Fatalf("tenant %s has %d tasks, more than one page", tenant, *page.Total)
		}
		for _, item := range page.Items {
			task, err := copyStore.Get(ctx, tenant, item.ID)
			if err != nil {
				t.Fatalf("task %s does not load from the copy: %v", item.ID, err)
			}
			if task.Protected.Instructions == "" {
				t.Fatalf("task %s lost its instructions", item.ID)
			}
			loaded++
		}
	}
	if loaded < 20 {
		t.Fatalf("only %d tasks in the copy", loaded)
	}

	copyVars := map[string]string{"USERTASKS_DATABASE_URL": "sqlite:" + dest, "USERTASKS_ENCRYPTION_KEYS": spec}
	t.Run("CopyMigrateStatusNothingPending", func(t *testing.T) {
		code, out, errOut := runWeb(t, copyVars, "migrate", "status")
		if code != 0 || !strings.Contains(out, " applied ") || strings.Contains(out, "pending") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	})
	t.Run("CopyAuditsClean", func(t *testing.T) {
		code, out, errOut := runWeb(t, copyVars, "audit")
		if code != 0 || !strings.Contains(out, "clean: no findings") || !strings.Contains(out, "every task in scope was checked") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	})
	t.Run("CopyAuditUnderAnotherKeyFinds", func(t *testing.T) {
		other, err := keyring.Generate("k1")
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runWeb(t, map[string]string{"USERTASKS_DATABASE_URL": "sqlite:" + dest, "USERTASKS_ENCRYPTION_KEYS": other}, "audit")
		if code != exitFindings {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFindings, out, errOut)
		}
	})

	t.Run("RefusesToOverwrite", func(t *testing.T) {
		before, _ := os.ReadFile(dest)
		code, _, errOut := runWeb(t, vars, "backup", "--to", dest)
		if code != 1 || !strings.Contains(errOut, "--force") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if after, _ := os.ReadFile(dest); string(after) != string(before) {
			t.Fatal("the existing file changed")
		}
	})
	t.Run("ForceReplaces", func(t *testing.T) {
		code, out, errOut := runWeb(t, vars, "backup", "--to", dest, "--force")
		if code != 0 || !strings.Contains(out, "integrity ok") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	})
	t.Run("ServerDialectsPointToTheirTools", func(t *testing.T) {
		for scheme, tool := range map[string]string{"postgres://u:p@127.0.0.1:1/db": "pg_dump", "mysql://u:p@127.0.0.1:1/db": "mariadb-dump"} {
			code, _, errOut := runWeb(t, map[string]string{"USERTASKS_DATABASE_URL": scheme}, "backup", "--to", filepath.Join(t.TempDir(), "x"))
			if code != 2 || !strings.Contains(errOut, tool) {
				t.Errorf("%s: exit %d: %s", scheme, code, errOut)
			}
		}
	})
	t.Run("BadInvocations", func(t *testing.T) {
		live := strings.TrimPrefix(url, "sqlite:")
		for _, args := range [][]string{
			{"backup"},
			{"backup", "--to", ""},
			{"backup", "--to", "a?b.db"},
			{"backup", "--to", "a#b.db"},
			{"backup", "--to", "a\nb.db"},
			{"backup", "--to", live, "--force"},
			{"backup", "--to", "x.db", "extra"},
		} {
			code, _, errOut := runWeb(t, vars, args...)
			// One line of reason first, then the command's usage.
			reason, rest, _ := strings.Cut(errOut, "\n")
			if code != 2 || !strings.HasPrefix(reason, "web: ") || !strings.HasPrefix(rest, "usage: web backup") {
				t.Errorf("%q: exit %d, %q", args, code, errOut)
			}
		}
		missing := filepath.Join(t.TempDir(), "no-such-folder", "b.db")
		if code, _, errOut := runWeb(t, vars, "backup", "--to", missing); code != 1 {
			t.Errorf("into a missing folder: exit %d, %s", code, errOut)
		}
	})
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"usertasks/audit"
	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/repository"
	"usertasks/storekit"
	"usertasks/storetest"
	"usertasks/storetest/sqlharness"
	"usertasks/testfactory"
)

func TestAuditReportsCleanThenExitsThreeOnACorruptedStore(t *testing.T) {
	spec, err := keyring.Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	url := testfactory.Database(t, testfactory.SQLite)
	s := testfactory.OpenSQL(t, url, &testfactory.StoreOpts{Keys: keys})
	exec := func(t *testing.T, s *repository.Store, q string, args ...any) {
		t.Helper()
		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("exec %q: %v", q, err)
		}
	}
	h := sqlharness.Harness(migrations.SQLite)
	tasks := storetest.EveryStatus(t, h, s, "t1")
	storetest.EveryStatus(t, h, s, "t/2")

	runAudit := func(keys string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"audit"}, args...), env(map[string]string{
			"USERTASKS_DATABASE_URL": url, "USERTASKS_ENCRYPTION_KEYS": keys,
		}), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	report := func(t *testing.T, args ...string) audit.Report {
		t.Helper()
		code, out, errOut := runAudit(spec, append(args, "--json")...)
		var r audit.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil || (code != 0) != (r.Total > 0) {
			t.Fatalf("audit %v: exit %d, %v\n%s%s", args, code, err, out, errOut)
		}
		return r
	}

	t.Run("CleanExitsZero", func(t *testing.T) {
		code, out, errOut := runAudit(spec)
		if code != 0 || !strings.Contains(out, "clean: no findings") || !strings.Contains(out, "every task in scope was checked") ||
			!strings.Contains(out, `primary "k1"`) {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		if strings.Contains(out, "Check the invoice") {
			t.Fatalf("the report shows protected content:\n%s", out)
		}
		if r := report(t); r.Tasks != 2*len(tasks) || !r.Complete {
			t.Fatalf("audited %d tasks (complete %v), want %d", r.Tasks, r.Complete, 2*len(tasks))
		}
		if r := report(t, "--tenant", "t/2"); r.Tasks != len(tasks) {
			t.Fatalf("tenant t/2: audited %d tasks, want %d", r.Tasks, len(tasks))
		}
	})

	t.Run("LimitThenResume", func(t *testing.T) {
		code, out, _ := runAudit(spec, "--limit", "5")
		resume := regexp.MustCompile(`continue with --after (\S+)`).FindStringSubmatch(out)
		if code != 0 || resume == nil {
			t.Fatalf("exit %d, no resume key:\n%s", code, out)
		}
		if r := report(t, "--after", resume[1]); r.Tasks != 2*len(tasks)-5 || !r.Complete {
			t.Fatalf("resumed after %s: %d tasks, want %d", resume[1], r.Tasks, 2*len(tasks)-5)
		}
		first := report(t, "--tenant", "t/2", "--limit", "3")
		if rest := report(t, "--tenant", "t/2", "--after", first.Last); first.Complete || rest.Tasks != len(tasks)-3 {
			t.Fatalf("within tenant t/2 after %q: %d tasks, want %d", first.Last, rest.Tasks, len(tasks)-3)
		}
	})

	t.Run("CorruptedExitsThree", func(t *testing.T) {
		task := tasks["Completing"]
		exec(t, s, "UPDATE user_task_candidates SET task_status = 'Assigned' WHERE task_id = ?", task.ID)
		code, out, errOut := runAudit(spec)
		if code != exitFindings || !strings.Contains(out, "candidate-status") || !strings.Contains(out, task.ID) ||
			!strings.Contains(out, "1 findings") {
			t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
		}
		if r := report(t); r.Total != 1 || r.Counts[storekit.InvCandidateStatus] != 1 || r.Findings[0].TaskID != task.ID {
			t.Fatalf("report %+v", r)
		}
	})

	t.Run("BrokenSessionTokenIsAFinding", func(t *testing.T) { // after CorruptedExitsThree: two findings now
		ws := storetest.CreateWebSession(t, s, &storetest.WebSessionOpts{Tenant: "t1", RefreshToken: "refresh-secret"})
		exec(t, s, "UPDATE user_task_web_sessions SET refresh_token_enc = 'k1:AAAA' WHERE id_hash = ?", ws.IDHash)
		code, out, _ := runAudit(spec)
		if code != exitFindings || !strings.Contains(out, "store row user_task_web_sessions:"+ws.IDHash[:16]+": ciphertext") ||
			!strings.Contains(out, "2 findings") || strings.Contains(out, ws.IDHash) || strings.Contains(out, "refresh-secret") {
			t.Fatalf("exit %d\n%s", code, out)
		}
		if r := report(t, "--tenant", "t1"); r.Total != 1 {
			t.Fatalf("a tenant's audit checked the browser sessions: %+v", r)
		}
	})

	t.Run("RefusesBadCalls", func(t *testing.T) {
		for _, bad := range [][]string{
			{"--limit", "-1"}, {"extra"}, {"--nope"}, {"--after", "no-tenant"}, {"--tenant", "t1", "--after", "t2/x"},
			{"--tenant", "t\x001"}, {"--tenant", strings.Repeat("x", 65)}, {"--after", "t1/" + strings.Repeat("9", 37)},
			{"--after", "/x"}, {"--after", "t1/"},
		} {
			code, _, errOut := runAudit(spec, bad...)
			reason, rest, _ := strings.Cut(errOut, "\n")
			if code != 2 || !strings.HasPrefix(reason, "web: ") || !strings.HasPrefix(rest, "usage: web audit") {
				t.Errorf("audit %q: exit %d, want 2 with a one-line reason and the usage: %q", bad, code, errOut)
			}
		}
		if code, _, errOut := runAudit(""); code != 1 || !strings.Contains(errOut, "USERTASKS_ENCRYPTION_KEYS") {
			t.Errorf("without keys: exit %d, %s", code, errOut)
		}
		if code, _, errOut := runAudit(spec, "--help"); code != 0 || !strings.Contains(errOut, "Exit status 0 when clean, 3") {
			t.Errorf("--help: exit %d, %s", code, errOut)
		}
	})
}

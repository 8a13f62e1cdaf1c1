package storetest

import (
	"testing"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

func ring(t *testing.T, kids ...string) map[string]string {
	t.Helper()
	specs := map[string]string{}
	for _, kid := range kids {
		spec, err := keyring.Generate(kid)
		if err != nil {
			t.Fatal(err)
		}
		specs[kid] = spec
	}
	return specs
}

func parseRing(t *testing.T, specs ...string) *keyring.Keyring {
	t.Helper()
	var joined string
	for i, s := range specs {
		if i > 0 {
			joined += ","
		}
		joined += s
	}
	r, err := keyring.Parse(joined)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rekeyAll walks every sealed table in pages of size and adds up what the pages found.
func rekeyAll(t *testing.T, s store.Store, size int, dryRun bool) (rows, resealed int, byKey map[string]int, unreadable []string) {
	t.Helper()
	byKey = map[string]int{}
	for _, table := range storekit.SealedTables {
		after := ""
		for pages := 0; ; pages++ {
			if pages > 1000 {
				t.Fatalf("%s: the walk does not end", table.Name)
			}
			p, err := s.RekeyPage(ctx(t), table.Name, after, size, dryRun)
			if err != nil {
				t.Fatalf("%s after %q: %v", table.Name, after, err)
			}
			if p.Rows > size {
				t.Fatalf("%s: a page of %d read %d rows", table.Name, size, p.Rows)
			}
			rows, resealed = rows+p.Rows, resealed+p.Resealed
			for k, n := range p.ByKey {
				byKey[k] += n
			}
			unreadable = append(unreadable, p.Unreadable...)
			if p.Next == "" {
				break
			}
			after = p.Next
		}
	}
	return rows, resealed, byKey, unreadable
}

func testRekey(t *testing.T, h Harness) {
	keys := ring(t, "old", "new", "stranger")
	old := parseRing(t, keys["old"])
	s := h.open(t, Options{Keys: old})
	var tasks []models.Task
	for _, text := range []string{"first secret", "second secret", "third secret"} {
		tasks = append(tasks, CreateTask(t, s, TaskOpts{Instructions: text, Data: `{"n":"` + text + `"}`, CandidateUsers: []string{"ann"}}))
	}
	issue(t, s, tasks[0], "raw-token-rekey-0001")
	// Sealed values: instructions and data of three tasks, one recipient, one delivery payload.
	const sealed = 3*2 + 2

	s = h.reopen(t, s, Options{Keys: parseRing(t, keys["new"], keys["old"])})
	t.Run("DryRunCountsAndChangesNothing", func(t *testing.T) {
		_, resealed, byKey, unreadable := rekeyAll(t, s, 2, true)
		if resealed != sealed || byKey["old"] != sealed || byKey["new"] != 0 || len(unreadable) != 0 {
			t.Fatalf("would reseal %d, by key %v, unreadable %v", resealed, byKey, unreadable)
		}
		if _, _, byKey, _ := rekeyAll(t, s, 500, true); byKey["old"] != sealed {
			t.Fatalf("a dry run changed keys: %v", byKey)
		}
	})
	t.Run("ResealsInPagesUnderThePrimary", func(t *testing.T) {
		_, resealed, _, unreadable := rekeyAll(t, s, 2, false)
		if resealed != sealed || len(unreadable) != 0 {
			t.Fatalf("resealed %d of %d, unreadable %v", resealed, sealed, unreadable)
		}
		_, again, byKey, _ := rekeyAll(t, s, 500, false)
		if again != 0 || byKey["new"] != sealed || byKey["old"] != 0 {
			t.Fatalf("a rerun resealed %d; by key %v", again, byKey)
		}
	})
	t.Run("TheOldKeyCanBeRetired", func(t *testing.T) {
		s = h.reopen(t, s, Options{Keys: parseRing(t, keys["new"])})
		for i, want := range []string{"first secret", "second secret", "third secret"} {
			got := mustGet(t, s, tasks[i].Tenant, tasks[i].ID)
			if got.Protected.Instructions != want {
				t.Fatalf("task %d instructions %q", i, got.Protected.Instructions)
			}
		}
		invs, err := s.Invitations(ctx(t), tasks[0].Tenant, tasks[0].ID)
		if err != nil || len(invs) != 1 || invs[0].Recipient != "guest@example.org" {
			t.Fatalf("invitations %+v, %v", invs, err)
		}
	})
	t.Run("UnknownKeyReportedNotRewritten", func(t *testing.T) {
		s = h.reopen(t, s, Options{Keys: parseRing(t, keys["stranger"])})
		_, resealed, byKey, unreadable := rekeyAll(t, s, 500, false)
		if resealed != 0 || len(unreadable) != sealed || byKey["new"] != sealed {
			t.Fatalf("resealed %d, by key %v, unreadable %d", resealed, byKey, len(unreadable))
		}
	})
	t.Run("UnknownTableRefused", func(t *testing.T) {
		if _, err := s.RekeyPage(ctx(t), "user_task_events; DROP TABLE user_tasks", "", 10, true); err == nil {
			t.Fatal("a table without sealed columns was accepted")
		}
	})
}

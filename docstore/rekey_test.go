package docstore_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/keyring"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// testRings parses one key ring per list of key ids, from keys generated once.
func testRings(t *testing.T, lists ...[]string) []*keyring.Keyring {
	t.Helper()
	specs := map[string]string{}
	var out []*keyring.Keyring
	for _, kids := range lists {
		var parts []string
		for _, kid := range kids {
			if specs[kid] == "" {
				spec, err := keyring.Generate(kid)
				if err != nil {
					t.Fatal(err)
				}
				specs[kid] = spec
			}
			parts = append(parts, specs[kid])
		}
		r, err := keyring.Parse(strings.Join(parts, ","))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// rekeyUnits walks every sealed unit (the SQL store's sealed tables) in pages of size and adds
// up what the pages found.
func rekeyUnits(t *testing.T, s *docstore.Store, size int, dryRun bool) (resealed int, byKey map[string]int, unreadable []string) {
	t.Helper()
	byKey = map[string]int{}
	for _, u := range storekit.SealedTables {
		after := ""
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatalf("%s: the walk does not end", u.Name)
			}
			p, err := s.RekeyPage(testContext(t), u.Name, after, size, dryRun)
			if err != nil {
				t.Fatalf("%s after %q: %v", u.Name, after, err)
			}
			if p.Rows > size {
				t.Fatalf("%s: a page of %d read %d documents", u.Name, size, p.Rows)
			}
			resealed += p.Resealed
			for k, n := range p.ByKey {
				byKey[k] += n
			}
			unreadable = append(unreadable, p.Unreadable...)
			if after = p.Next; after == "" {
				break
			}
		}
	}
	return resealed, byKey, unreadable
}

// TestRekeyEverySealedField: a rotation reseals, in pages, the task's protected fields, the
// payloads of open and finished operations, a web session's tokens and an invitation's and a
// delivery's sealed fields; a rerun finds nothing, the old key can then go, and values under an
// unknown key are reported and left alone.
func TestRekeyEverySealedField(t *testing.T) {
	rings := testRings(t, []string{"old"}, []string{"new", "old"}, []string{"new"}, []string{"stranger"})
	url := testfactory.Database(t, testfactory.Mongo)
	// The store under each ring in turn: the rotation's nodes.
	under := func(ring *keyring.Keyring) *docstore.Store {
		return docStore(t, testfactory.Open(t, url, &testfactory.StoreOpts{Keys: ring}))
	}
	s := under(rings[0])
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	var tasks []models.Task
	for i := range 3 {
		tasks = append(tasks, createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"},
			Instructions: fmt.Sprintf("secret %d", i), Data: fmt.Sprintf(`{"n":%d}`, i),
			Form: []byte(`{"type":"object","properties":{"note":{"type":"string"}}}`)}))
	}
	// An open completion (its payload in the aggregate) and a finished one (in its collection).
	for i, task := range tasks[:2] {
		if _, err := s.Mutate(ctx, "t1", task.ID, "claim", claimBy(ann, 1, "claim")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Mutate(ctx, "t1", task.ID, "done", completeBy(ann, 2, "done", `{"note":"payload"}`)); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			if _, err := s.Mutate(ctx, "t1", task.ID, "", finalize); err != nil {
				t.Fatal(err)
			}
		}
	}
	ws := models.WebSession{IDHash: fmt.Sprintf("%064x", 9), Via: models.WebViaOIDC, IdleTimeout: time.Hour, RefreshToken: "rt", IDToken: "it",
		WebIdentity: models.WebIdentity{Tenant: "t1", Provider: models.DefaultProvider, Subject: "ann"}}
	if _, err := s.CreateWebSession(ctx, ws, time.Hour); err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct{ coll, field string }{{invitationCollection, storekit.ColRecipient}, {deliveryCollection, storekit.ColPayload}} {
		id := models.NewID()
		sealed, err := s.Seal(id, u.field, []byte("guest@example.org"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Database().Collection(u.coll).InsertOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: "t1"},
			{Key: "task_id", Value: tasks[0].ID}, {Key: u.field, Value: *sealed}, {Key: "version", Value: int64(0)}}); err != nil {
			t.Fatal(err)
		}
	}
	// Instructions, data and form of three tasks, the completion data of two (on the task and in
	// the operation's payload), two tokens, a recipient and a delivery.
	const sealed = 3*3 + 2*2 + 2 + 2

	s = under(rings[1])
	if resealed, byKey, unreadable := rekeyUnits(t, s, 2, true); resealed != sealed || byKey["old"] != sealed || len(unreadable) != 0 {
		t.Fatalf("dry run: would reseal %d, by key %v, unreadable %v", resealed, byKey, unreadable)
	}
	if _, byKey, _ := rekeyUnits(t, s, 500, true); byKey["old"] != sealed {
		t.Fatalf("a dry run changed keys: %v", byKey)
	}
	if resealed, _, unreadable := rekeyUnits(t, s, 2, false); resealed != sealed || len(unreadable) != 0 {
		t.Fatalf("resealed %d of %d, unreadable %v", resealed, sealed, unreadable)
	}
	if again, byKey, _ := rekeyUnits(t, s, 500, false); again != 0 || byKey["new"] != sealed || byKey["old"] != 0 {
		t.Fatalf("a rerun resealed %d; by key %v", again, byKey)
	}

	s = under(rings[2])
	for i, task := range tasks {
		got, err := s.Get(ctx, "t1", task.ID)
		if err != nil || got.Protected.Instructions != fmt.Sprintf("secret %d", i) {
			t.Fatalf("task %d: %q, %v", i, got.Protected.Instructions, err)
		}
	}
	for _, task := range tasks[:2] {
		if op, err := s.Operation(ctx, "t1", task.ID, "done"); err != nil || string(op.Payload) != `{"note":"payload"}` {
			t.Fatalf("operation of %s: %+v, %v", task.ID, op, err)
		}
	}
	if got, err := s.WebSession(ctx, ws.IDHash); err != nil || got.RefreshToken != "rt" || got.IDToken != "it" {
		t.Fatalf("web session: %+v, %v", got, err)
	}
	p, err := s.AuditSealed(ctx, webSessionCollection, "", 10)
	if err != nil || p.Rows != 1 || p.ByKey["new"] != 2 || len(p.Unreadable) != 0 || p.Resealed != 0 {
		t.Fatalf("AuditSealed: %+v, %v", p, err)
	}
	if _, err := s.AuditSealed(ctx, docstore.Aggregate, "", 10); err == nil {
		t.Fatal("AuditSealed walked the aggregates the page audit covers")
	}

	s = under(rings[3])
	if resealed, byKey, unreadable := rekeyUnits(t, s, 500, false); resealed != 0 || len(unreadable) != sealed || byKey["new"] != sealed {
		t.Fatalf("under an unknown key: resealed %d, by key %v, unreadable %d", resealed, byKey, len(unreadable))
	}
	if _, err := s.RekeyPage(ctx, "user_task_events", "", 10, true); err == nil {
		t.Fatal("a unit without sealed fields was accepted")
	}
}

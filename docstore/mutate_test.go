package docstore_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/testfactory"
)

func claimBy(actor models.Actor, revision int, opID string) models.MutateFunc {
	return func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		return models.Claim(cur, models.Command{OperationID: opID, ExpectedRevision: revision, Actor: actor, Prior: prior}, now)
	}
}

func completeBy(actor models.Actor, revision int, opID string, data string) models.MutateFunc {
	return func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		var raw []byte
		if data != "" {
			raw = []byte(data)
		}
		return models.Complete(cur, models.Command{OperationID: opID, ExpectedRevision: revision, Actor: actor, Prior: prior},
			models.ActionComplete, raw, now)
	}
}

func cancelBy(actor models.Actor, revision int, opID string) models.MutateFunc {
	return func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		return models.Cancel(cur, models.Command{OperationID: opID, ExpectedRevision: revision, Actor: actor, Prior: prior}, "no longer needed", now)
	}
}

func finalize(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
	return models.Finalize(cur, now)
}

func eventSeqs(t *testing.T, s taskStore, tenant, id string) []int {
	t.Helper()
	evs, err := s.Events(testContext(t), tenant, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, e := range evs {
		seqs = append(seqs, e.Seq)
	}
	return seqs
}

func upTo(n int) []int {
	var out []int
	for i := 1; i <= n; i++ {
		out = append(out, i)
	}
	return out
}

// TestMutateLifecycle: claim, complete with data and finalize, each one claimed write: the
// revision and event sequence advance, the completion's operation holds the sealed data and
// waits (accepted) in the aggregate with its resumption, and the finalization completes the
// operation and settles the resumption, which the relay had moved already.
func TestMutateLifecycle(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"},
		Form: []byte(`{"type":"object","properties":{"note":{"type":"string"}}}`)})

	claimed, err := s.Mutate(ctx, "t1", task.ID, "claim-1", claimBy(ann, task.Revision, "claim-1"))
	if err != nil {
		t.Fatal(err)
	}
	if claimed.Task.Status != models.StatusAssigned || claimed.Task.Revision != 2 {
		t.Fatalf("after the claim: %s revision %d", claimed.Task.Status, claimed.Task.Revision)
	}
	got, err := s.Get(ctx, "t1", task.ID)
	if err != nil || got.Status != models.StatusAssigned || got.Assignee == nil || got.Assignee.ID != "ann" || got.Revision != 2 {
		t.Fatalf("Get after the claim = %+v, %v", got, err)
	}
	if len(got.Assignment.Candidates) != 1 {
		t.Fatalf("candidates %+v", got.Assignment.Candidates)
	}

	done, err := s.Mutate(ctx, "t1", task.ID, "complete-1", completeBy(ann, 2, "complete-1", `{"note":"secret-note"}`))
	if err != nil {
		t.Fatal(err)
	}
	if done.Task.Status != models.StatusCompleting || done.Resumption == nil {
		t.Fatalf("after the completion: %s, resumption %v", done.Task.Status, done.Resumption)
	}
	op, err := s.Operation(ctx, "t1", task.ID, "complete-1")
	if err != nil || op.State != models.OperationAccepted || string(op.Payload) != `{"note":"secret-note"}` {
		t.Fatalf("Operation = %+v, %v; want accepted with the data", op, err)
	}
	raw := rawTask(t, s, task.ID)
	if bytes.Contains(raw, []byte("secret-note")) {
		t.Fatal("the completion data is in the aggregate in plaintext")
	}
	var ops []storekit.OperationRow
	if err := raw.Lookup("operations").Unmarshal(&ops); err != nil || len(ops) != 1 || ops[0].OperationID != "complete-1" {
		t.Fatalf("operations in the aggregate %+v, %v; want the open completion only", ops, err)
	}
	rs, err := s.Resumptions(ctx, "t1", task.ID)
	if err != nil || len(rs) != 1 || rs[0].State != models.DeliveryPending {
		t.Fatalf("Resumptions = %+v, %v", rs, err)
	}

	final, err := s.Mutate(ctx, "t1", task.ID, "", finalize)
	if err != nil {
		t.Fatal(err)
	}
	if final.Task.Status != models.StatusCompleted {
		t.Fatalf("after finalize: %s", final.Task.Status)
	}
	if op, err := s.Operation(ctx, "t1", task.ID, "complete-1"); err != nil || op.State != models.OperationCompleted || op.CompletedAt == nil {
		t.Fatalf("Operation after finalize = %+v, %v", op, err)
	}
	if rs, err := s.Resumptions(ctx, "t1", task.ID); err != nil || len(rs) != 1 || rs[0].State != models.DeliverySettled {
		t.Fatalf("Resumptions after finalize = %+v, %v", rs, err)
	}
	if seqs := eventSeqs(t, s, "t1", task.ID); !slices.Equal(seqs, upTo(4)) {
		t.Fatalf("event sequence %v, want 1..4", seqs)
	}
	requireRelayed(t, s, task.ID)
}

// requireRelayed: nothing waits in the aggregate, and every event is in its collection once.
func requireRelayed(t *testing.T, s *docstore.Store, id string) {
	t.Helper()
	d := pendingIn(t, s, id)
	if d.RelayDue || len(d.PendingEvents) > 0 || len(d.PendingResumptions) > 0 || len(d.PendingEffects) > 0 {
		t.Fatalf("the aggregate still holds pending entries: due %v, %d events, %d resumptions, %d effects",
			d.RelayDue, len(d.PendingEvents), len(d.PendingResumptions), len(d.PendingEffects))
	}
	n, err := s.Database().Collection(eventCollection).CountDocuments(testContext(t), bson.D{{Key: "task_id", Value: id}})
	if err != nil || int(n) != d.LastEventSeq {
		t.Fatalf("%d events in the collection, %v; want %d", n, err, d.LastEventSeq)
	}
}

// TestMutateReplay: a claim keeps the sealed envelope of what it did not change; the same
// operation replays its stored answer (also once the relay moved the operation to its
// collection); another request under its id is an idempotency conflict;
// a stale revision is a revision conflict; another tenant's task is not found.
func TestMutateReplay(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	ann := testfactory.Worker("t1", "ann")
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann", "bob"}, Instructions: "secret"})
	sealed := rawTask(t, s, task.ID).Lookup(storekit.ColInstructions).StringValue()
	first, err := s.Mutate(ctx, "t1", task.ID, "op-1", claimBy(ann, task.Revision, "op-1"))
	if err != nil {
		t.Fatal(err)
	}
	if rawTask(t, s, task.ID).Lookup(storekit.ColInstructions).StringValue() != sealed {
		t.Fatal("a claim sealed the unchanged instructions again")
	}
	if n, err := s.Database().Collection(operationCollection).CountDocuments(ctx, bson.D{{Key: "operation_id", Value: "op-1"}}); err != nil || n != 1 {
		t.Fatalf("the finished claim is %d times in its collection, %v", n, err)
	}
	again, err := s.Mutate(ctx, "t1", task.ID, "op-1", claimBy(ann, task.Revision, "op-1"))
	if err != nil || again.Replay == nil || string(again.Replay.Result) != string(first.Operation.Result) {
		t.Fatalf("replay = %+v, %v", again.Replay, err)
	}
	_, err = s.Mutate(ctx, "t1", task.ID, "op-1", claimBy(ann, task.Revision+1, "op-1"))
	if code := models.ErrorCode(err); code != models.CodeIdempotencyConflict {
		t.Fatalf("another request under op-1: %v, want idempotency-conflict", err)
	}
	_, err = s.Mutate(ctx, "t1", task.ID, "", claimBy(testfactory.Worker("t1", "bob"), task.Revision, ""))
	if code := models.ErrorCode(err); code != models.CodeRevisionConflict {
		t.Fatalf("a stale revision: %v, want revision-conflict", err)
	}
	if _, err := s.Mutate(ctx, "t2", task.ID, "", claimBy(ann, 2, "")); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("another tenant's task: %v, want ErrNotFound", err)
	}
	if got, _ := s.Get(ctx, "t1", task.ID); got.Revision != 2 {
		t.Fatalf("revision %d after refused commands, want 2", got.Revision)
	}
}

// TestAppendEventConcurrent: appends running at once each take their own sequence number,
// interleaved with a mutation; the history has no gap and no duplicate, and HasActed sees the
// actors.
func TestAppendEventConcurrent(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			actor := testfactory.User("t1", fmt.Sprintf("viewer-%d", i))
			_, err := s.AppendEvent(testContext(t), "t1", task.ID, func(now time.Time, cur models.Task) (models.Event, error) {
				return models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq + 1,
					Revision: cur.Revision, Type: models.EventFieldRevealed, OccurredAt: now, Actor: &actor}, nil
			})
			if err != nil {
				t.Errorf("append %d: %v", i, err)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := s.Mutate(testContext(t), "t1", task.ID, "", claimBy(testfactory.Worker("t1", "ann"), task.Revision, "")); err != nil {
			t.Errorf("claim: %v", err)
		}
	}()
	wg.Wait()
	if seqs := eventSeqs(t, s, "t1", task.ID); !slices.Equal(seqs, upTo(n+2)) {
		t.Fatalf("event sequence %v, want 1..%d", seqs, n+2)
	}
	if page, err := s.Events(ctx, "t1", task.ID, 3, 4); err != nil || len(page) != 4 || page[0].Seq != 4 || page[3].Seq != 7 {
		t.Fatalf("Events after 3, limit 4 = %+v, %v", page, err)
	}
	if _, err := s.RelayPass(ctx, 100); err != nil {
		t.Fatal(err)
	}
	requireRelayed(t, s, task.ID)
	for who, want := range map[string]bool{"viewer-3": true, "ann": true, "nobody": false} {
		if acted, err := s.HasActed(ctx, "t1", task.ID, testfactory.User("t1", who)); err != nil || acted != want {
			t.Errorf("HasActed(%s) = %v, %v; want %v", who, acted, err, want)
		}
	}
	if acted, err := s.HasActed(ctx, "t2", task.ID, testfactory.User("t1", "ann")); err != nil || acted {
		t.Errorf("HasActed in another tenant = %v, %v", acted, err)
	}
}

// raceResult is what a race left behind: each writer's outcome (sorted), the task's final
// revision relative to the start and the number of events.
type raceResult struct {
	Outcomes []string
	Revision int
	Events   int
}

// raceScenarios are run on both stores; each starts eight writers at once on one task.
var raceScenarios = []struct {
	name string
	opts testfactory.TaskOpts
	// writer i's decision on the task as created.
	writer func(task models.Task, i int) (opID string, decide models.MutateFunc)
	want   raceResult
}{
	{
		name: "EightCandidatesClaim",
		opts: testfactory.TaskOpts{Candidates: []string{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"}},
		writer: func(task models.Task, i int) (string, models.MutateFunc) {
			op := fmt.Sprintf("claim-%d", i)
			return op, claimBy(testfactory.Worker("t1", fmt.Sprintf("c%d", i)), task.Revision, op)
		},
		want: raceResult{Outcomes: outcomes(1, 7, "revision-conflict"), Revision: 1, Events: 2},
	},
	{
		name: "EightCandidatesClaimWithoutOperationID",
		opts: testfactory.TaskOpts{Candidates: []string{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"}},
		writer: func(task models.Task, i int) (string, models.MutateFunc) {
			return "", claimBy(testfactory.Worker("t1", fmt.Sprintf("c%d", i)), task.Revision, "")
		},
		want: raceResult{Outcomes: outcomes(1, 7, "revision-conflict"), Revision: 1, Events: 2},
	},
	{
		name: "OneOperationEightTimes",
		opts: testfactory.TaskOpts{Candidates: []string{"ann"}},
		writer: func(task models.Task, _ int) (string, models.MutateFunc) {
			return "claim-same", claimBy(testfactory.Worker("t1", "ann"), task.Revision, "claim-same")
		},
		want: raceResult{Outcomes: outcomes(8, 0, ""), Revision: 1, Events: 2},
	},
	{
		name: "CompleteVersusCancel",
		opts: testfactory.TaskOpts{Assignee: "ann", CancellationEnabled: true},
		writer: func(task models.Task, i int) (string, models.MutateFunc) {
			op := fmt.Sprintf("op-%d", i)
			if i%2 == 0 {
				return op, completeBy(testfactory.Worker("t1", "ann"), task.Revision, op, "")
			}
			return op, cancelBy(testfactory.Manager("t1", "boss"), task.Revision, op)
		},
		want: raceResult{Outcomes: outcomes(1, 7, "revision-conflict"), Revision: 1, Events: 2},
	},
}

func outcomes(ok, other int, code string) []string {
	var out []string
	for range ok {
		out = append(out, "ok")
	}
	for range other {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}

// runRace runs one scenario on s.
func runRace(t *testing.T, s taskStore, opts testfactory.TaskOpts, writer func(models.Task, int) (string, models.MutateFunc)) (raceResult, models.Task) {
	t.Helper()
	task := createTask(t, s, &opts)
	const n = 8
	got := make([]string, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i := range n {
		wg.Add(1)
		op, decide := writer(task, i)
		go func() {
			defer wg.Done()
			start.Wait()
			_, err := s.Mutate(testContext(t), "t1", task.ID, op, decide)
			got[i] = outcome(err)
		}()
	}
	start.Done()
	wg.Wait()
	slices.Sort(got)
	final, err := s.Get(testContext(t), "t1", task.ID)
	if err != nil {
		t.Fatal(err)
	}
	return raceResult{Outcomes: got, Revision: final.Revision - task.Revision, Events: len(eventSeqs(t, s, "t1", task.ID))}, final
}

// TestMutateRaces: eight writers on one task at once give exactly one winner, and the same
// outcomes as the SQL store (SQLite) running the same scenario: the losers' revision
// conflicts, the replays of one operation, one event per applied change. The aggregate ends
// consistent: one claim per version, every event relayed once.
func TestMutateRaces(t *testing.T) {
	sql := testfactory.OpenStore(t, testfactory.SQLite, nil)
	s := openStore(t, nil)
	for _, sc := range raceScenarios {
		t.Run(sc.name, func(t *testing.T) {
			onSQL, _ := runRace(t, sql, sc.opts, sc.writer)
			onDocs, final := runRace(t, s, sc.opts, sc.writer)
			if !slices.Equal(onSQL.Outcomes, sc.want.Outcomes) || onSQL.Revision != sc.want.Revision || onSQL.Events != sc.want.Events {
				t.Errorf("SQL store: %+v, want %+v", onSQL, sc.want)
			}
			if !slices.Equal(onDocs.Outcomes, onSQL.Outcomes) || onDocs.Revision != onSQL.Revision || onDocs.Events != onSQL.Events {
				t.Fatalf("document store: %+v, SQL store %+v", onDocs, onSQL)
			}
			if _, err := s.RelayPass(testContext(t), 100); err != nil {
				t.Fatal(err)
			}
			requireRelayed(t, s, final.ID)
		})
	}
}

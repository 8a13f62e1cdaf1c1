package workers_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// BenchmarkCompletionStages times each stage of a task's completion after its claim, one task
// at a time, so a stage's time is its latency without contention (issue 27, item 3): the
// service's decision (the transition and the form's validation and normalization, inside the
// transaction), the rest of the complete transaction (the locked read, sealing, the UPDATE, the
// event, operation and outbox rows, COMMIT), and the dispatcher's delivery through the loopback
// runtime: its outbox claim, its reads (task and operation), the finalization transaction the
// loopback runs, and the acknowledgement. The claim is timed beside them as the yardstick.
// HTTP decoding is not in it (the server's profile shows it). It reports per stage in ms per
// task; nothing asserts a time. Run it short:
//
//	go test ./workers/ -run '^$' -bench CompletionStages -benchtime 200x
func BenchmarkCompletionStages(b *testing.B) {
	for _, p := range testfactory.SQLProviders {
		b.Run(p.Name(), func(b *testing.B) {
			s := testfactory.OpenSQL(b, testfactory.Database(b, p), nil)
			benchCompletionStages(b, s)
		})
	}
}

// benchStages accumulates the time of each stage.
type benchStages struct {
	mu  sync.Mutex
	sum map[string]time.Duration
}

func (st *benchStages) add(stage string, d time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sum[stage] += d
}

// timedStore times the store calls of the stages.
type timedStore struct {
	*repository.Store
	st *benchStages
	// decide, when set, names the stage a Mutate's decision is timed as; the rest of the
	// Mutate is timed as tx.
	decide, tx string
}

func (s timedStore) Mutate(ctx context.Context, tenant, taskID, opID string, decide models.MutateFunc) (models.Change, error) {
	var inDecide time.Duration
	begin := time.Now()
	ch, err := s.Store.Mutate(ctx, tenant, taskID, opID, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		d := time.Now()
		defer func() { inDecide += time.Since(d) }()
		return decide(now, t, prior)
	})
	if s.tx != "" {
		s.st.add(s.decide, inDecide)
		s.st.add(s.tx, time.Since(begin)-inDecide)
	}
	return ch, err
}

func (s timedStore) ClaimResumptions(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Resumption, error) {
	defer s.timed("dispatch: claim outbox rows", time.Now())
	return s.Store.ClaimResumptions(ctx, owner, limit, leaseFor)
}

func (s timedStore) Get(ctx context.Context, tenant, id string) (models.Task, error) {
	defer s.timed("dispatch: read task", time.Now())
	return s.Store.Get(ctx, tenant, id)
}

func (s timedStore) Operation(ctx context.Context, tenant, taskID, opID string) (models.Operation, error) {
	defer s.timed("dispatch: read operation", time.Now())
	return s.Store.Operation(ctx, tenant, taskID, opID)
}

func (s timedStore) AckResumption(ctx context.Context, r models.Resumption) error {
	defer s.timed("dispatch: acknowledge", time.Now())
	return s.Store.AckResumption(ctx, r)
}

func (s timedStore) FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error) {
	defer s.timed("loopback: find by bookmark", time.Now())
	return s.Store.FindByBookmarkID(ctx, tenant, bookmarkID)
}

func (s timedStore) timed(stage string, begin time.Time) { s.st.add(stage, time.Since(begin)) }

const benchForm = `{"type":"object","required":["decision"],"properties":{
 "decision":{"type":"string","enum":["approve","reject"],"x-ui":{"label":"Decision","order":1}},
 "iban":{"type":"string","x-ui":{"label":"IBAN","masked":true,"order":2}},
 "comment":{"type":"string","maxLength":200,"x-ui":{"widget":"textarea","order":3}}}}`

func benchCompletionStages(b *testing.B, s *repository.Store) {
	ctx := context.Background()
	st := &benchStages{sum: map[string]time.Duration{}}
	commands := &timedStore{Store: s, st: st} // the decision stages are set per command
	svc := tasks.New(commands, tasks.Options{})
	loop := workflow.NewLoopback(timedStore{Store: s, st: st, decide: "finalize: decision", tx: "finalize: transaction"})
	dispatch := workers.NewDispatcher(timedStore{Store: s, st: st}, loop, workers.DispatcherOptions{BatchSize: 1, Parallel: 1})
	ann := testfactory.Person("bench", "ann")
	for b.Loop() {
		b.StopTimer()
		task := testfactory.Task(ctx, b, s, &testfactory.TaskOpts{Tenant: "bench", Candidates: []string{"ann"},
			Data: `{"iban":"DE89370400440532013000","decision":"approve"}`, Form: json.RawMessage(benchForm)})
		b.StartTimer()

		begin := time.Now()
		claimed, err := svc.Claim(ctx, ann, task.ID, tasks.Common{OperationID: models.NewID(), ExpectedRevision: task.Revision})
		if err != nil {
			b.Fatal(err)
		}
		st.add("claim (service and transaction)", time.Since(begin))

		in := tasks.CompleteInput{Common: tasks.Common{OperationID: models.NewID(), ExpectedRevision: claimed.Revision},
			ActionKey: models.ActionComplete, Data: json.RawMessage(`{"decision":"approve","comment":"fine"}`)}
		commands.decide, commands.tx = "complete: decision and form", "complete: transaction"
		if _, err := svc.Complete(ctx, ann, task.ID, in); err != nil {
			b.Fatal(err)
		}
		commands.decide, commands.tx = "", ""

		begin = time.Now()
		res, err := dispatch.RunOnce(ctx)
		if err != nil || res.Delivered != 1 {
			b.Fatalf("dispatch %+v, %v; want one delivery", res, err)
		}
		st.add("dispatch: whole run", time.Since(begin))
	}
	for stage, d := range st.sum {
		unit := strings.NewReplacer(" ", "-", ":", "", "(", "", ")", "").Replace(stage) + "_ms/task"
		b.ReportMetric(float64(d.Microseconds())/1000/float64(b.N), unit)
	}
}

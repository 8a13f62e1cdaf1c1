package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/stress/child"
	"usertasks/testfactory"
)

// Crash recovery (docs/reliability.md, "Crash recovery"): `web serve` runs as a child process
// under a mixed workload and is killed with SIGKILL at random points, then restarted on the same
// database. Afterwards every command the server acknowledged is there, the timelines have no
// gaps, `web audit` is clean, the resumption outbox has delivered every decision to the runtime
// and every completed task was finalized exactly once.
//
// CRASH_KILLS (default 3) sets the number of kills per dialect, CRASH_SEED the seed (default:
// the clock; the seed is logged so a failing run can be repeated).

func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test starts and kills servers")
	}
	kills, seed := crashSettings(t)
	t.Run("SQLite", func(t *testing.T) {
		runCrash(t, testfactory.Database(t, testfactory.SQLite), kills, seed)
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		runCrash(t, testfactory.Database(t, testfactory.Postgres), kills, seed)
	})
	t.Run("DocumentStore", func(t *testing.T) {
		runCrash(t, testfactory.Database(t, testfactory.Mongo), kills, seed)
	})
}

// crashSettings reads CRASH_KILLS and CRASH_SEED.
func crashSettings(t *testing.T) (kills int, seed uint64) {
	t.Helper()
	kills, seed = 3, uint64(time.Now().UnixNano())
	if v := os.Getenv("CRASH_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CRASH_KILLS=%q: want a positive number", v)
		}
		kills = n
	}
	if v := os.Getenv("CRASH_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("CRASH_SEED=%q: want a number", v)
		}
		seed = n
	}
	t.Logf("crash test: %d kills per dialect, CRASH_SEED=%d", kills, seed)
	return kills, seed
}

// crashRuntimeSecret signs what the server sends the crash test's runtime.
const crashRuntimeSecret = "crash-runtime-secret-0123456789abcdef"

// runCrash is the whole test on the database at dbURL.
func runCrash(t *testing.T, dbURL string, kills int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	runtime := newCrashRuntime(crashRuntimeSecret)
	engine := httptest.NewServer(runtime)
	t.Cleanup(engine.Close)
	vars := productionVarsWith(t, map[string]string{
		"USERTASKS_DATABASE_URL":           dbURL,
		"USERTASKS_RUNTIME_URL":            engine.URL + crashRuntimePath,
		"USERTASKS_RUNTIME_SECRET":         crashRuntimeSecret,
		"USERTASKS_DISPATCH_INTERVAL":      "200ms",
		"USERTASKS_DISPATCH_LEASE":         "2s",
		"USERTASKS_RECONCILE_INTERVAL":     "2s",
		"USERTASKS_RECONCILE_QUIET_PERIOD": "1s",
	})
	// The server is this test binary acting as web (TestMain), with nothing else of the
	// test's environment.
	srv := newTestChild(t, child.Options{
		Env:  []string{asWebEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()},
		Vars: vars, Args: []string{"--migrate"},
	})
	client := newCrashClient(srv.Base(), vars)

	startCrashServer(t, srv)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var removals sync.WaitGroup
	removals.Add(1)
	go func() { defer removals.Done(); runtime.removeLoop(ctx, client) }()
	load := &crashLoad{client: client, runtime: runtime}
	var clients sync.WaitGroup
	for i := range crashClients {
		clients.Add(1)
		go func() { defer clients.Done(); load.person(ctx, i, rand.New(rand.NewPCG(seed, uint64(i)+2))) }()
	}
	var restarted time.Time
	for k := 1; k <= kills; k++ {
		time.Sleep(time.Duration(300+rng.IntN(2200)) * time.Millisecond)
		if err := srv.Kill(); err != nil {
			t.Fatal(err)
		}
		t.Logf("kill %d: %d commands acknowledged so far", k, load.acked())
		startCrashServer(t, srv)
		restarted = time.Now()
	}
	time.Sleep(time.Second)
	stop()
	clients.Wait()
	removals.Wait()

	// The server stays up until the outbox has drained; the runtime goes on removing bookmarks.
	drain, stopDrain := context.WithCancel(context.Background())
	removals.Add(1)
	go func() { defer removals.Done(); runtime.removeLoop(drain, client) }()
	tasks := waitDrained(t, client, runtime)
	stopDrain()
	removals.Wait()

	checkCrash(t, client, runtime, load, tasks)
	if docstore.IsURL(dbURL) {
		// The open-task place of a creation the last kill cut short is freed by the relay's
		// second sweep, ClaimGrace after the restart (docstore.Store.RunRelay): until then the
		// audit would find it.
		time.Sleep(time.Until(restarted.Add(docstore.DefaultClaimGrace + relayEvery + 2*time.Second)))
	}
	if err := srv.Stop(); err != nil {
		t.Error(err)
	}
	if out, err := srv.Command("audit").CombinedOutput(); err != nil || !strings.Contains(string(out), "clean: no findings") {
		// A line each, so that a log excerpt keeping only the test's own lines keeps the findings.
		for line := range strings.Lines(strings.TrimSpace(string(out))) {
			t.Logf("audit: %s", strings.TrimRight(line, "\n"))
		}
		t.Errorf("web audit after the crashes: %v", err)
	}
	stimuli, repeats := runtime.deliveries()
	t.Logf("crash test: %d kills, %d commands acknowledged (%s), %d tasks, %d stimuli delivered, %d of them repeats of a key already delivered",
		kills, load.acked(), load.summary(), len(tasks), stimuli, repeats)
}

// crashClients is how many people work at once.
const crashClients = 4

// crashAck is a command the server acknowledged with a 2xx.
type crashAck struct {
	kind        string // project, claim, release, complete
	taskID      string
	operationID string
	revision    int // the task's revision after the command
}

// crashLoad is the mixed workload: the engine projects bookmarks, people claim, release and
// complete; every acknowledged command is kept.
type crashLoad struct {
	client    *crashClient
	runtime   *crashRuntime
	bookmarks atomic.Int64

	mu   sync.Mutex
	acks []crashAck
}

func (l *crashLoad) ack(a crashAck) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acks = append(l.acks, a)
}

func (l *crashLoad) acked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acks)
}

// summary counts the acknowledged commands by kind.
func (l *crashLoad) summary() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := map[string]int{}
	for _, a := range l.acks {
		n[a.kind]++
	}
	return fmt.Sprintf("%d projections, %d claims, %d releases, %d completions", n["project"], n["claim"], n["release"], n["complete"])
}

// person is client i's loop until ctx ends: as the engine it sometimes projects a new bookmark;
// as person i it finishes a task it holds (complete, or now and then release) or claims one.
// While the server is down every call fails; the loop waits a moment and goes on.
func (l *crashLoad) person(ctx context.Context, i int, rng *rand.Rand) {
	me := crashPerson(i)
	for n := 0; ctx.Err() == nil; n++ {
		var err error
		switch {
		case rng.IntN(4) == 0:
			err = l.project(ctx)
		default:
			err = l.work(ctx, me, fmt.Sprintf("p%d-%d", i, n), rng)
		}
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// project commits a new bookmark at the engine, then posts it. The bookmark id needs escaping
// on the runtime's side (a slash, a space, a question mark, a non-ASCII letter).
func (l *crashLoad) project(ctx context.Context) error {
	n := l.bookmarks.Add(1)
	instance := fmt.Sprintf("wf-%d", n)
	bookmark := instance + "/Prüfung ?1"
	people := make([]map[string]string, crashClients)
	for i := range people {
		people[i] = map[string]string{"id": crashPerson(i).id}
	}
	body := map[string]any{"workflowDefinitionId": "crash", "workflowInstanceId": instance, "activityInstanceId": "review",
		"bookmarkId": bookmark, "task": map[string]any{"title": "Review " + instance, "candidateUsers": people}}
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	l.runtime.commit(bookmark, raw)
	var out struct {
		TaskID   string `json:"taskId"`
		Revision int    `json:"revision"`
	}
	status, err := l.client.do(ctx, crashEngine, http.MethodPost, "/api/v1/runtime/bookmarks", nil, body, &out)
	if err == nil && (status == http.StatusCreated || status == http.StatusOK) {
		l.ack(crashAck{kind: "project", taskID: out.TaskID, revision: out.Revision})
	}
	return crashErr(status, err)
}

// work finishes a task me holds, or else claims an available one.
func (l *crashLoad) work(ctx context.Context, me crashActor, op string, rng *rand.Rand) error {
	mine, _, err := l.client.list(ctx, me, models.ScopeAssigned, "", 10)
	if err != nil {
		return err
	}
	for _, t := range mine {
		if t.Status != models.StatusAssigned {
			continue
		}
		if rng.IntN(4) == 0 {
			return l.command(ctx, me, "release", t, map[string]any{"expectedRevision": t.Revision, "operationId": op})
		}
		return l.command(ctx, me, "complete", t, map[string]any{"expectedRevision": t.Revision, "operationId": op, "actionKey": models.ActionComplete})
	}
	open, _, err := l.client.list(ctx, me, models.ScopeAvailable, "", 10)
	if err != nil || len(open) == 0 {
		return errors.Join(err, errNothingToDo)
	}
	t := open[rng.IntN(len(open))]
	return l.command(ctx, me, "claim", t, map[string]any{"expectedRevision": t.Revision, "operationId": op})
}

// errNothingToDo makes a person wait a moment before looking again.
var errNothingToDo = errors.New("nothing to do")

// command posts a task command and keeps it when acknowledged. A conflict (someone was faster)
// is an expected refusal.
func (l *crashLoad) command(ctx context.Context, me crashActor, verb string, t crashTask, body map[string]any) error {
	var out struct {
		OperationID string `json:"operationId"`
		Revision    int    `json:"revision"`
		Task        struct {
			ID string `json:"id"`
		} `json:"task"`
	}
	status, err := l.client.do(ctx, me, http.MethodPost, "/api/v1/user-tasks/"+t.ID+"/"+verb, nil, body, &out)
	if err == nil && status/100 == 2 {
		l.ack(crashAck{kind: verb, taskID: t.ID, operationID: body["operationId"].(string), revision: out.Revision})
	}
	if status == http.StatusConflict {
		return nil
	}
	return crashErr(status, err)
}

// crashErr is a transport error, or an unexpected answer as one.
func crashErr(status int, err error) error {
	if err != nil || status/100 == 2 {
		return err
	}
	return fmt.Errorf("HTTP %d", status)
}

// waitDrained waits until no task is transitional and the runtime has told the server about
// every bookmark it deleted, and returns the tenant's tasks.
func waitDrained(t *testing.T, c *crashClient, runtime *crashRuntime) []crashTask {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for {
		tasks, err := c.allTasks(ctx)
		if err != nil {
			t.Fatalf("list the tasks: %v", err)
		}
		transitional := 0
		for _, task := range tasks {
			if task.Status.IsTransitional() {
				transitional++
			}
		}
		pending := runtime.pendingRemovals()
		if transitional == 0 && pending == 0 {
			return tasks
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute %d tasks are still transitional and %d bookmark removals unacknowledged", transitional, pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkCrash checks what the server holds after the crashes against what it acknowledged and
// what the runtime received.
func checkCrash(t *testing.T, c *crashClient, runtime *crashRuntime, load *crashLoad, tasks []crashTask) {
	t.Helper()
	ctx := context.Background()
	known := map[string]bool{}
	timelines := map[string][]crashEvent{}
	for _, task := range tasks {
		known[task.ID] = true
		events, err := c.events(ctx, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		timelines[task.ID] = events
		checkTimeline(t, task, events, runtime.keysOf(task.ID))
	}
	if extra := runtime.unknownTasks(known); len(extra) > 0 {
		t.Errorf("the runtime got stimuli for tasks the tenant does not hold: %q", extra)
	}
	wantEvent := map[string]models.EventType{"claim": models.EventClaimed, "release": models.EventReleased, "complete": models.EventCompletionRequested}
	for _, a := range load.acks {
		if !known[a.taskID] {
			t.Errorf("acknowledged %s of task %s: the task is not there", a.kind, a.taskID)
			continue
		}
		if a.kind == "project" {
			continue
		}
		if !hasEvent(timelines[a.taskID], wantEvent[a.kind], a.operationID, a.revision) {
			t.Errorf("acknowledged %s %s of task %s at revision %d: no %s event with that operation and revision",
				a.kind, a.operationID, a.taskID, a.revision, wantEvent[a.kind])
		}
		if key := a.taskID + ":" + a.operationID; a.kind == "complete" && !contains(runtime.keysOf(a.taskID), key) {
			t.Errorf("acknowledged completion %s: the runtime never got its stimulus", key)
		}
	}
	if p := runtime.problemList(); p != "" {
		t.Errorf("the runtime: %s", p)
	}
}

// checkTimeline checks one task: events numbered 1…n without a gap; a completion requested
// once, delivered to the runtime under its own key only, and finalized once; no stimulus for a
// task nobody completed.
func checkTimeline(t *testing.T, task crashTask, events []crashEvent, keys []string) {
	t.Helper()
	var requested []string
	finalized := 0
	for i, e := range events {
		if e.Seq != i+1 {
			t.Errorf("task %s: event %d has seq %d: a gap in the timeline", task.ID, i+1, e.Seq)
			break
		}
		switch e.Type {
		case models.EventCompletionRequested:
			if e.OperationID != nil {
				requested = append(requested, task.ID+":"+*e.OperationID)
			}
		case models.EventCompleted:
			finalized++
		}
	}
	switch {
	case len(requested) == 0:
		if len(keys) > 0 || finalized > 0 || task.Status.IsTerminal() {
			t.Errorf("task %s (%s) was never completed, yet has %d completed events and stimuli %q", task.ID, task.Status, finalized, keys)
		}
	case len(requested) > 1:
		t.Errorf("task %s: completion requested %d times: %q", task.ID, len(requested), requested)
	case task.Status != models.StatusCompleted || finalized != 1:
		t.Errorf("task %s: %s with %d completed events, want Completed once", task.ID, task.Status, finalized)
	case len(keys) != 1 || keys[0] != requested[0]:
		t.Errorf("task %s: the runtime got stimuli %q, want exactly %q", task.ID, keys, requested[0])
	}
}

func hasEvent(events []crashEvent, typ models.EventType, operationID string, revision int) bool {
	for _, e := range events {
		if e.Type == typ && e.OperationID != nil && *e.OperationID == operationID && e.Revision == revision {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// startCrashServer starts `web serve --migrate` on the server's fixed address, so clients reach
// it again after each kill.
func startCrashServer(t *testing.T, srv *child.Server) {
	t.Helper()
	if err := srv.Start(context.Background(), time.Minute); err != nil {
		t.Fatal(err)
	}
}

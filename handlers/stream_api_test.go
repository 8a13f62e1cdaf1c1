package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/live"
	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// streamEnv is the production router with the stream enabled (New with Live and Watchers), on a
// real SQLite file store that notifies a real broker, the lifecycle service, and the real
// authentication middleware over a token table.
type streamEnv struct {
	url    string
	store  store.Store
	svc    *tasks.Service
	broker *live.Broker
}

// streamTokens maps a bearer token to its actor.
type streamTokens map[string]models.Actor

func (m streamTokens) Actor(_ context.Context, token string) (models.Actor, error) {
	a, ok := m[token]
	if !ok {
		return models.Actor{}, models.ErrUnauthorized
	}
	return a, nil
}

// streamWorker holds every user-tasks permission.
var streamWorker = testfactory.Person

var streamActors = func() streamTokens {
	boss := streamWorker("t1", "boss")
	boss.Manager = true
	noView := streamWorker("t1", "nina")
	noView.Permissions = []string{"user-tasks:claim"}
	return streamTokens{
		"ann": streamWorker("t1", "ann"), "bob": streamWorker("t1", "bob", "finance"), "carl": streamWorker("t1", "carl"),
		"eve": streamWorker("t1", "eve", "finance"), "dave": streamWorker("t1", "dave"), "boss": boss, "nina": noView,
		"t2-ann": streamWorker("t2", "ann", "finance"),
	}
}()

func newStreamEnv(t *testing.T, o live.Options) *streamEnv {
	t.Helper()
	return newStreamEnvServer(t, o, nil)
}

// newStreamEnvServer is newStreamEnv with the HTTP server's settings changed by configure.
func newStreamEnvServer(t *testing.T, o live.Options, configure func(*http.Server)) *streamEnv {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	b := live.NewBroker(store, o)
	store.NotifyChanges(b)
	ran := make(chan struct{})
	go func() { _ = b.Run(ctx); close(ran) }()

	svc := tasks.New(store, tasks.Options{})
	e := New(Deps{Store: store, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: streamActors, Live: b, Watchers: svc})
	srv := httptest.NewUnstartedServer(e)
	if configure != nil {
		configure(srv.Config)
	}
	srv.Start()
	t.Cleanup(func() {
		cancel() // ends the broker, which ends every stream, so the server can close
		<-ran
		srv.Close()
	})
	return &streamEnv{url: srv.URL, store: store, svc: svc, broker: b}
}

// task projects a task of tenant t1 with candidates through the real projection path.
func (e *streamEnv) task(t *testing.T, users, groups, excluded []string) models.Task {
	t.Helper()
	return testfactory.Task(context.Background(), t, e.store, &testfactory.TaskOpts{
		Title: "Approve invoice", Candidates: users, Groups: groups, Excluded: excluded})
}

// streamFrame is one thing read from the stream: an event's data, a comment or a retry field.
type streamFrame struct{ data, comment, retry string }

type streamClient struct {
	resp   *http.Response
	frames chan streamFrame
	cancel context.CancelFunc
	ended  chan struct{}
}

// open connects as token and returns once the stream's headers arrived (the subscription is
// in place by then).
func (e *streamEnv) open(t *testing.T, token string) *streamClient {
	t.Helper()
	resp, cancel := e.request(t, token)
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		cancel()
		t.Fatalf("stream as %s: status %d, body %s", token, resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	c := &streamClient{resp: resp, frames: make(chan streamFrame, 100), cancel: cancel, ended: make(chan struct{})}
	go c.read()
	t.Cleanup(c.close)
	return c
}

func (e *streamEnv) request(t *testing.T, token string) (*http.Response, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.url+"/api/v1/user-tasks/stream", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	return resp, cancel
}

func (c *streamClient) read() {
	defer close(c.ended)
	sc := bufio.NewScanner(c.resp.Body)
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if len(data) > 0 {
				c.frames <- streamFrame{data: strings.Join(data, "\n")}
				data = nil
			}
		case strings.HasPrefix(line, ":"):
			c.frames <- streamFrame{comment: strings.TrimSpace(strings.TrimPrefix(line, ":"))}
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		case strings.HasPrefix(line, "retry: "):
			c.frames <- streamFrame{retry: strings.TrimPrefix(line, "retry: ")}
		}
	}
}

var streamCloseMu sync.Mutex

func (c *streamClient) close() {
	streamCloseMu.Lock()
	defer streamCloseMu.Unlock()
	c.cancel()
	c.resp.Body.Close()
}

// next returns the next event, skipping comments and retry fields.
func (c *streamClient) next(t *testing.T) map[string]any {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case f := <-c.frames:
			if f.data == "" {
				continue
			}
			var ev map[string]any
			if err := json.Unmarshal([]byte(f.data), &ev); err != nil {
				t.Fatalf("event data %q: %v", f.data, err)
			}
			return ev
		case <-c.ended:
			t.Fatal("the stream ended while an event was expected")
		case <-deadline:
			t.Fatal("no event within 5 s")
		}
	}
}

// wantEvent reads the next event and checks it names the task at the revision, with exactly
// the four metadata-free fields.
func (c *streamClient) wantEvent(t *testing.T, task models.Task, revision int, kind live.Kind) {
	t.Helper()
	ev := c.next(t)
	if len(ev) != 4 {
		t.Fatalf("event %v: want exactly kind, taskId, revision, occurredAt", ev)
	}
	if ev["taskId"] != task.ID || ev["revision"] != float64(revision) || ev["kind"] != string(kind) {
		t.Fatalf("event %v, want %s of %s at revision %d", ev, kind, task.ID, revision)
	}
	if _, err := time.Parse(time.RFC3339Nano, ev["occurredAt"].(string)); err != nil || !strings.HasSuffix(ev["occurredAt"].(string), "Z") {
		t.Fatalf("occurredAt %v is not RFC 3339 UTC", ev["occurredAt"])
	}
}

// streamRev returns a command's new revision, failing t on an error: streamRev(t)(svc.Claim(…)).
func streamRev(t *testing.T) func(tasks.Result, error) int {
	return func(r tasks.Result, err error) int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r.Revision
	}
}

func TestStreamDeliversOnlyWhatTheCallerMaySee(t *testing.T) {
	env := newStreamEnv(t, live.Options{})
	ctx := context.Background()
	invoice := env.task(t, []string{"ann"}, []string{"finance"}, []string{"eve"})
	barrier := env.task(t, []string{"carl", "eve", "ann", "dave"}, nil, nil)

	ann, bob, boss := env.open(t, "ann"), env.open(t, "bob"), env.open(t, "boss")
	carl, eve, dave, otherTenant := env.open(t, "carl"), env.open(t, "eve"), env.open(t, "dave"), env.open(t, "t2-ann")

	claimed := streamRev(t)(env.svc.Claim(ctx, streamActors["bob"], invoice.ID, tasks.Common{ExpectedRevision: invoice.Revision}))
	t.Run("CandidatesAssigneeAndManagerHearTheClaim", func(t *testing.T) {
		for _, c := range []*streamClient{ann, bob, boss} {
			c.wantEvent(t, invoice, claimed, live.KindChanged)
		}
	})

	// Every subscriber may see the barrier task: whoever hears it first was not told about
	// the invoice.
	barrierRev := streamRev(t)(env.svc.Claim(ctx, streamActors["carl"], barrier.ID, tasks.Common{ExpectedRevision: barrier.Revision}))
	t.Run("UnrelatedAndExcludedHearNothing", func(t *testing.T) {
		for _, c := range []*streamClient{carl, eve, dave} {
			c.wantEvent(t, barrier, barrierRev, live.KindChanged)
		}
	})
	t.Run("OtherTenantHearsNothing", func(t *testing.T) {
		select {
		case f := <-otherTenant.frames:
			if f.data != "" {
				t.Fatalf("another tenant's stream got %q", f.data)
			}
		case <-time.After(200 * time.Millisecond):
		}
	})

	t.Run("PastActorKeepsHearing", func(t *testing.T) {
		// Its own server and streams: the cases above consume the shared streams' events.
		env := newStreamEnv(t, live.Options{})
		task := env.task(t, []string{"ann"}, nil, nil)
		barrier := env.task(t, []string{"carl"}, nil, nil)
		dave, carl := env.open(t, "dave"), env.open(t, "carl")
		r1 := streamRev(t)(env.svc.Assign(ctx, streamActors["boss"], task.ID, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: task.Revision},
			Assignee: models.ParticipantRef{Provider: "default", Type: models.UserParticipant, ID: "dave"}}))
		dave.wantEvent(t, task, r1, live.KindChanged) // the assignee
		r2 := streamRev(t)(env.svc.Release(ctx, streamActors["dave"], task.ID, tasks.ReleaseInput{Common: tasks.Common{ExpectedRevision: r1}}))
		dave.wantEvent(t, task, r2, live.KindChanged) // no longer assignee nor candidate: a past actor
		prio := 80
		r3 := streamRev(t)(env.svc.UpdateSchedule(ctx, streamActors["boss"], task.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: r2}, Priority: &prio}))
		dave.wantEvent(t, task, r3, live.KindChanged)
		// carl hears the barrier task next: he was told nothing of the other task.
		carl.wantEvent(t, barrier, streamRev(t)(env.svc.Claim(ctx, streamActors["carl"], barrier.ID, tasks.Common{ExpectedRevision: barrier.Revision})), live.KindChanged)
	})
}

func TestStreamRefusals(t *testing.T) {
	env := newStreamEnv(t, live.Options{MaxPerActor: 2})
	problemOf := func(t *testing.T, token string) (int, problem, http.Header) {
		t.Helper()
		resp, cancel := env.request(t, token)
		defer cancel()
		defer resp.Body.Close()
		var p problem
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			t.Fatalf("status %d: body is not a problem: %v", resp.StatusCode, err)
		}
		if ct := resp.Header.Get("Content-Type"); ct != problemContentType {
			t.Fatalf("content type %q", ct)
		}
		return resp.StatusCode, p, resp.Header
	}
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		for _, token := range []string{"", "forged"} {
			if status, p, _ := problemOf(t, token); status != 401 || p.Code != models.CodeUnauthenticated {
				t.Fatalf("token %q: %d %s, want 401 unauthenticated", token, status, p.Code)
			}
		}
	})
	t.Run("ErrForbiddenWithoutViewPermission", func(t *testing.T) {
		if status, p, _ := problemOf(t, "nina"); status != 403 || p.Code != models.CodeForbidden {
			t.Fatalf("%d %s, want 403 forbidden", status, p.Code)
		}
	})
	t.Run("ErrRateLimitedOverThePerCallerCap", func(t *testing.T) {
		first := env.open(t, "ann")
		env.open(t, "ann")
		status, p, h := problemOf(t, "ann")
		if status != 429 || p.Code != models.CodeRateLimited || h.Get("Retry-After") == "" {
			t.Fatalf("third stream: %d %s (Retry-After %q), want 429 rate-limited with Retry-After", status, p.Code, h.Get("Retry-After"))
		}
		env.open(t, "bob") // other callers are not affected
		first.close()
		streamWaitFor(t, "the closed stream's slot to free", func() bool { return env.broker.Subscribers() == 2 })
		env.open(t, "ann")
	})
}

func TestStreamLifecycle(t *testing.T) {
	env := newStreamEnv(t, live.Options{Heartbeat: 50 * time.Millisecond, MaxAge: 2 * time.Second})
	t.Run("RetryAndHeartbeats", func(t *testing.T) {
		c := env.open(t, "ann")
		var retry, pings int
		for deadline := time.After(5 * time.Second); pings < 2; {
			select {
			case f := <-c.frames:
				if f.retry != "" {
					retry++
				}
				if f.comment == "ping" {
					pings++
				}
			case <-deadline:
				t.Fatalf("%d pings within 5 s, want 2", pings)
			}
		}
		if retry != 1 {
			t.Fatalf("%d retry fields, want 1 before the heartbeats", retry)
		}
	})
	t.Run("DisconnectFreesTheSubscription", func(t *testing.T) {
		streamWaitFor(t, "the earlier streams to end", func() bool { return env.broker.Subscribers() == 0 })
		before := 0
		c := env.open(t, "bob")
		if got := env.broker.Subscribers(); got != before+1 {
			t.Fatalf("%d subscribers, want %d", got, before+1)
		}
		c.close()
		streamWaitFor(t, "the subscription to end", func() bool { return env.broker.Subscribers() == before })
	})
	t.Run("MaxAgeEndsTheStream", func(t *testing.T) {
		c := env.open(t, "carl")
		select {
		case <-c.ended:
		case <-time.After(5 * time.Second):
			t.Fatal("the stream outlived its maximum age")
		}
	})
	t.Run("BrokerStopEndsStreams", func(t *testing.T) {
		c := env.open(t, "dave")
		env.broker.Close()
		select {
		case <-c.ended:
		case <-time.After(5 * time.Second):
			t.Fatal("stopping the broker did not end the stream")
		}
		if resp, cancel := env.request(t, "dave"); resp.StatusCode != http.StatusServiceUnavailable {
			cancel()
			t.Fatalf("after stop: %d, want 503", resp.StatusCode)
		} else {
			resp.Body.Close()
			cancel()
		}
	})
}

func TestStreamResyncAfterLoss(t *testing.T) {
	env := newStreamEnv(t, live.Options{QueueSize: 1})
	ann := env.open(t, "ann")
	// A burst larger than the queue loses changes; the stream tells its client to resync.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		for i := range 1000 {
			env.broker.Changed("t1", models.NewID(), i+2)
		}
		for {
			select {
			case f := <-ann.frames:
				if f.data == "" {
					continue
				}
				var ev map[string]any
				if err := json.Unmarshal([]byte(f.data), &ev); err != nil {
					t.Fatal(err)
				}
				if _, has := ev["taskId"]; ev["kind"] != "resync" || has || len(ev) != 2 {
					t.Fatalf("event %v: want a resync with only kind and occurredAt", ev)
				}
				return
			case <-time.After(50 * time.Millisecond):
			}
			break
		}
	}
	t.Fatal("no resync within 5 s of overflowing bursts")
}

func streamWaitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

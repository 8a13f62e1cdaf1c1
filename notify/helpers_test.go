package notify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/testfactory"
)

// Fixtures of the notification worker tests: a real store (SQLite file, or a fresh PostgreSQL
// database), tasks projected as the runtime does (their rows written by the store), a static
// directory, a webhook receiver behind httptest and a mailer that records.

const hookSecret = "0123456789abcdef0123456789abcdef-secret"

// ntDirectory: ann, bob and cid in finance (ann with an address), eve in sales with an
// address, zed in no group, and the group big of 50 users u00..u49.
func ntDirectory() directory.Static {
	users := []directory.StaticUser{
		{ID: "ann", DisplayName: "Ann", Email: "ann@example.com", Groups: []string{"finance"}},
		{ID: "bob", DisplayName: "Bob", Groups: []string{"finance"}},
		{ID: "cid", Groups: []string{"finance"}},
		{ID: "eve", Email: "eve@example.com", Groups: []string{"sales"}},
		{ID: "zed"},
	}
	for i := range 50 {
		users = append(users, directory.StaticUser{ID: fmt.Sprintf("u%02d", i), Groups: []string{"big"}})
	}
	return directory.Static{Tenants: map[string]directory.StaticTenant{"t1": {Users: users}}}
}

func user(id string) models.ParticipantRef { return testfactory.User("t1", id) }

// hookCall is one request the webhook receiver got.
type hookCall struct {
	Key       string
	Signature string
	Body      []byte
}

// hookServer is the webhook receiver: it answers status(n) to the n-th call (1-based) of
// /hook, 200 by default, and counts what reaches /elsewhere (where a redirect points).
type hookServer struct {
	*httptest.Server
	mu        sync.Mutex
	calls     []hookCall
	elsewhere int
	status    func(n int) int
	// before, when set, runs before each answer (the storm test blocks in it).
	before func()
}

func newHookServer(t *testing.T) *hookServer {
	h := &hookServer{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/elsewhere" {
			h.mu.Lock()
			h.elsewhere++
			h.mu.Unlock()
			return
		}
		body, _ := io.ReadAll(r.Body)
		if h.before != nil {
			h.before()
		}
		h.mu.Lock()
		h.calls = append(h.calls, hookCall{Key: r.Header.Get("Idempotency-Key"), Signature: r.Header.Get("X-UserTasks-Signature"), Body: body})
		n, status := len(h.calls), h.status
		h.mu.Unlock()
		code := http.StatusOK
		if status != nil {
			code = status(n)
		}
		if code >= 300 && code < 400 {
			w.Header().Set("Location", "/elsewhere")
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookServer) webhook(t *testing.T) *notify.Webhook {
	t.Helper()
	w, err := notify.NewWebhook(h.URL+"/hook", hookSecret, notify.WebhookOptions{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (h *hookServer) all() []hookCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookCall(nil), h.calls...)
}

// keys counts the calls per Idempotency-Key.
func (h *hookServer) keys() map[string]int {
	out := map[string]int{}
	for _, c := range h.all() {
		out[c.Key]++
	}
	return out
}

// sentMail is one Send the recording mailer got.
type sentMail struct {
	Address string
	ID      string
	Task    notify.Task
}

// recordingMailer records every Send; err(n) fails the n-th (1-based) when set.
type recordingMailer struct {
	mu   sync.Mutex
	sent []sentMail
	err  func(n int) error
}

func (m *recordingMailer) Send(_ context.Context, to notify.Recipient, n models.Notification, t notify.Task) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, sentMail{Address: to.Address, ID: n.ID, Task: t})
	if m.err != nil {
		return m.err(len(m.sent))
	}
	return nil
}

func (m *recordingMailer) SendDigest(context.Context, notify.Recipient, models.DigestPeriod, []notify.Item) error {
	return fmt.Errorf("the delivery worker sends no digest")
}

func (m *recordingMailer) mails() []sentMail {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]sentMail(nil), m.sent...)
}

// newDeliverer is a Deliverer on s with the test's channels; o adjusts the options.
func newDeliverer(s store.Store, owner string, o notify.Options) *notify.Deliverer {
	o.Owner = owner
	if o.BaseURL == "" {
		o.BaseURL = "https://tasks.example/"
	}
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	return notify.NewDeliverer(s, o)
}

// runIdle runs d until a run claims nothing and returns the runs' results.
func runIdle(t *testing.T, d *notify.Deliverer) []notify.Result {
	t.Helper()
	var out []notify.Result
	for range 500 {
		res, err := d.RunOnce(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if res.Claimed == 0 {
			return out
		}
		out = append(out, res)
	}
	t.Fatal("the worker never ran out of due rows")
	return nil
}

// total adds up results.
func total(rs []notify.Result) notify.Counts {
	var c notify.Counts
	for _, r := range rs {
		c.Add(r.Counts)
	}
	return c
}

// inbox is who's in-app list (every shown row, newest first).
func inbox(t *testing.T, s store.Store, who string) []models.Notification {
	t.Helper()
	page, err := s.Notifications(t.Context(), models.NotificationQuery{Tenant: "t1", Recipient: user(who), Limit: models.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	return page.Items
}

// project projects a task in t1 (the store writes the rows its creation causes).
func project(t *testing.T, s store.Store, o testfactory.TaskOpts) models.Task {
	t.Helper()
	o.Tenant = "t1"
	return testfactory.Task(t.Context(), t, s, &o)
}

// complete completes an assigned task (no form) as its assignee, queueing a resumption.
func complete(t *testing.T, s store.Store, task models.Task) {
	t.Helper()
	opID := "complete-" + models.NewID()
	_, err := s.Mutate(t.Context(), task.Tenant, task.ID, opID, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		cmd := models.Command{OperationID: opID, ExpectedRevision: cur.Revision, Actor: testfactory.Person(cur.Tenant, cur.Assignee.ID), Prior: prior}
		return models.Complete(cur, cmd, models.ActionComplete, json.RawMessage(`{}`), now)
	})
	if err != nil {
		t.Fatalf("complete: %v", err)
	}
}

// sqliteStore is a store on a fresh SQLite file with a clock the test moves.
func sqliteStore(t *testing.T) (store.Store, *testfactory.Clock) {
	t.Helper()
	clock := &testfactory.Clock{}
	return testfactory.Open(t, testfactory.Database(t, testfactory.SQLite), &testfactory.StoreOpts{Clock: clock.Now}), clock
}

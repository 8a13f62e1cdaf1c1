package workers_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

const dvBaseURL = "https://tasks.example.org/prefix/"

// dvIssued is an invitation issued by the test, with the secrets only its guest may see.
type dvIssued struct {
	inv         models.Invitation
	token, code string
}

// dvIssue issues an invitation on task whose delivery names dispatcher; payload overrides the
// sealed payload when set.
func dvIssue(t *testing.T, s store.Store, task models.Task, dispatcher string, life time.Duration, payload []byte) dvIssued {
	t.Helper()
	token, hash, err := invitations.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	out := dvIssued{token: token}
	inv, err := s.IssueInvitation(context.Background(), task.Tenant, task.ID, func(now time.Time, cur models.Task) (models.Invitation, models.Delivery, models.Event, error) {
		id := models.NewID()
		code, codeHash, err := invitations.NewCode(id)
		if err != nil {
			return models.Invitation{}, models.Delivery{}, models.Event{}, err
		}
		out.code = code
		inv := models.Invitation{ID: id, Tenant: cur.Tenant, TaskID: cur.ID, VerifierName: "code", AllowedActions: []string{"Complete"},
			Recipient: "guest+" + id[:8] + "@example.net", TokenHash: hash, CodeHash: codeHash, Status: models.InvitationPending,
			IssuedAt: now, ExpiresAt: now.Add(life), UpdatedAt: now}
		p := payload
		if p == nil {
			p, _ = invitations.Payload{Token: token, Code: code, Recipient: inv.Recipient}.Encode()
		}
		d := models.Delivery{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, InvitationID: id, Dispatcher: dispatcher, Payload: p,
			State: models.DeliveryPending, AvailableAt: now, ExpiresAt: inv.ExpiresAt, IdempotencyKey: "issue:" + id, CreatedAt: now, UpdatedAt: now}
		ev, err := models.InvitationEvent(cur, wkBoss(cur.Tenant), models.EventInvitationIssued, id, now)
		return inv, d, ev, err
	})
	if err != nil {
		t.Fatalf("issue: %v", err)
	}
	out.inv = inv
	return out
}

func dvStatus(t *testing.T, s store.Store, inv models.Invitation) models.InvitationStatus {
	t.Helper()
	got, err := s.FindInvitationByTokenHash(context.Background(), inv.TokenHash)
	if err != nil {
		t.Fatal(err)
	}
	return got.Status
}

// dvDispatcher records what it is handed and fails while fail returns an error.
type dvDispatcher struct {
	mu   sync.Mutex
	got  []invitations.Message
	sent chan invitations.Message
	fail func(m invitations.Message) error
}

func (d *dvDispatcher) Dispatch(_ context.Context, m invitations.Message) error {
	d.mu.Lock()
	d.got = append(d.got, m)
	fail := d.fail
	d.mu.Unlock()
	if fail != nil {
		if err := fail(m); err != nil {
			return err
		}
	}
	if d.sent != nil {
		d.sent <- m
	}
	return nil
}

func (d *dvDispatcher) calls() []invitations.Message {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]invitations.Message(nil), d.got...)
}

// dvSecretsAbsent fails when a raw token, code or address appears in text.
func dvSecretsAbsent(t *testing.T, what, text string, issued ...dvIssued) {
	t.Helper()
	for _, i := range issued {
		for _, secret := range []string{i.token, i.code, i.inv.Recipient} {
			if secret != "" && strings.Contains(text, secret) {
				t.Fatalf("%s contains a secret %q:\n%s", what, secret, text)
			}
		}
	}
}

func dvDeliverer(s store.Store, owner string, d invitations.Dispatcher, o workers.DeliveryOptions) *workers.Deliverer {
	o.Owner, o.BaseURL = owner, dvBaseURL
	return workers.NewDeliverer(s, map[string]invitations.Dispatcher{invitations.DispatcherWebhook: d}, o)
}

func TestDeliveriesSendOnceAndMarkDispatched(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		s := db.open(t, nil)
		log, logs := wkLogger(t)
		task := wkProject(t, s, wkTaskOpts{})
		issued := dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
		disp := &dvDispatcher{}
		res, err := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log}).RunOnce(t.Context())
		if err != nil || res.Claimed != 1 || res.Sent != 1 || res.Tenants[task.Tenant].Sent != 1 {
			t.Fatalf("run %+v, %v", res, err)
		}
		calls := disp.calls()
		if len(calls) != 1 {
			t.Fatalf("dispatched %d times", len(calls))
		}
		m := calls[0]
		want := invitations.Message{Tenant: task.Tenant, TaskID: task.ID, InvitationID: issued.inv.ID, Recipient: issued.inv.Recipient,
			Link: "https://tasks.example.org/prefix/guest?t=" + issued.token, Code: issued.code, ExpiresAt: issued.inv.ExpiresAt}
		if m != want {
			t.Fatalf("message\n got %+v\nwant %+v", m, want)
		}
		if got := dvStatus(t, s, issued.inv); got != models.InvitationDispatched {
			t.Fatalf("status %s", got)
		}
		again, _ := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log}).RunOnce(t.Context())
		if again.Claimed != 0 || len(disp.calls()) != 1 {
			t.Fatalf("sent again: %+v", again)
		}
		dvSecretsAbsent(t, "logs", logs.String(), issued)
	})
}

func TestDeliveriesBackOffThenAbandonWithHealth(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, logs := wkLogger(t)
	task := wkProject(t, s, wkTaskOpts{})
	issued := dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
	// A hostile dispatcher error that repeats the link and the address.
	disp := &dvDispatcher{fail: func(m invitations.Message) error {
		return fmt.Errorf("550 mailbox %s unavailable; link %s code %s", m.Recipient, m.Link, m.Code)
	}}
	d := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log})
	run := func() workers.DeliveryResult {
		t.Helper()
		res, err := d.RunOnce(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run(); res.Failed != 1 {
		t.Fatalf("first attempt %+v", res)
	}
	for i, delay := range workers.DeliverySchedule {
		clock.Advance(delay - time.Second)
		if res := run(); res.Claimed != 0 {
			t.Fatalf("step %d: claimed %s early", i+1, time.Second)
		}
		clock.Advance(time.Second)
		res := run()
		if i < len(workers.DeliverySchedule)-1 && res.Failed != 1 {
			t.Fatalf("step %d: %+v", i+1, res)
		}
		if i == len(workers.DeliverySchedule)-1 && res.Abandoned != 1 {
			t.Fatalf("the fifth failure did not abandon: %+v", res)
		}
	}
	if n := len(disp.calls()); n != 5 {
		t.Fatalf("%d attempts, want 5", n)
	}
	clock.Advance(24 * time.Hour)
	if res := run(); res.Claimed != 0 {
		t.Fatalf("an abandoned delivery was claimed: %+v", res)
	}
	got := wkGet(t, s, task.Tenant, task.ID)
	if got.Health.Code != models.HealthInvitationDeliveryFailing || got.Health.Severity != models.SeverityAdvisory {
		t.Fatalf("health %+v", got.Health)
	}
	dvSecretsAbsent(t, "health", got.Health.Message, issued)
	if st := dvStatus(t, s, issued.inv); st != models.InvitationPending {
		t.Fatalf("status %s", st)
	}
	text := logs.String()
	dvSecretsAbsent(t, "logs", text, issued)
	if !strings.Contains(text, "code=dispatch-failed") || strings.Contains(text, "mailbox") {
		t.Fatalf("logs do not carry the safe code only:\n%s", text)
	}

	t.Run("NextSuccessClearsTheFinding", func(t *testing.T) {
		disp.mu.Lock()
		disp.fail = nil
		disp.mu.Unlock()
		dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
		if res := run(); res.Sent != 1 {
			t.Fatalf("run %+v", res)
		}
		if h := wkGet(t, s, task.Tenant, task.ID).Health; h.Code != "" {
			t.Fatalf("health %+v", h)
		}
	})
}

func TestDeliveriesStoreOnlySafeCodes(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, logs := wkLogger(t)
	task := wkProject(t, s, wkTaskOpts{})
	unknown := dvIssue(t, s, task, "carrier-pigeon", 24*time.Hour, nil)
	broken := dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, []byte(`{"code":"654321"}`))
	failing := dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
	disp := &dvDispatcher{fail: func(m invitations.Message) error {
		return &invitations.DispatchError{Code: "webhook-status-503"}
	}}
	res, err := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log}).RunOnce(t.Context())
	if err != nil || res.Claimed != 3 || res.Failed != 2 || res.Abandoned != 1 {
		t.Fatalf("run %+v, %v", res, err)
	}
	if n := len(disp.calls()); n != 1 {
		t.Fatalf("dispatched %d, want only the decodable row with a known dispatcher", n)
	}
	clock.Advance(time.Minute)
	rows, err := s.ClaimDeliveries(t.Context(), "probe", 10, time.Minute)
	if err != nil || len(rows) != 2 {
		t.Fatalf("claim %d %v", len(rows), err)
	}
	want := map[string]string{unknown.inv.ID: workers.DeliveryNoDispatcher, failing.inv.ID: "webhook-status-503"}
	for _, r := range rows {
		if r.LastError != want[r.InvitationID] || r.Attempts != 1 {
			t.Errorf("row of %s: attempts %d, error %q", r.InvitationID, r.Attempts, r.LastError)
		}
	}
	if h := wkGet(t, s, task.Tenant, task.ID).Health; h.Code != models.HealthInvitationDeliveryFailing {
		t.Fatalf("an undecodable payload did not flag the task: %+v", h)
	}
	_ = broken
	dvSecretsAbsent(t, "logs", logs.String(), unknown, failing)
}

func TestDeliveriesLeaseLostCannotAcknowledge(t *testing.T) {
	clock := &testfactory.Clock{}
	db := wkSQLite(t)
	a, b := db.open(t, clock), db.open(t, clock)
	log, _ := wkLogger(t)
	task := wkProject(t, a, wkTaskOpts{})
	issued := dvIssue(t, a, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
	// Node A's attempt outlasts its lease: meanwhile node B claims the row and sends it.
	bDisp := &dvDispatcher{}
	nodeB := dvDeliverer(b, "node-b", bDisp, workers.DeliveryOptions{Logger: log, LeaseFor: time.Minute, BatchSize: 1, Timeout: time.Second})
	var bRes workers.DeliveryResult
	aDisp := &dvDispatcher{fail: func(invitations.Message) error {
		clock.Advance(2 * time.Minute)
		var err error
		bRes, err = nodeB.RunOnce(context.Background())
		if err != nil {
			t.Error(err)
		}
		return &invitations.DispatchError{Code: "smtp-rcpt-451"}
	}}
	res, err := dvDeliverer(a, "node-a", aDisp, workers.DeliveryOptions{Logger: log, LeaseFor: time.Minute, BatchSize: 1, Timeout: time.Second}).RunOnce(t.Context())
	if err != nil || res.Failed != 1 || bRes.Sent != 1 {
		t.Fatalf("node a %+v %v; node b %+v", res, err, bRes)
	}
	// A's stale retry changed nothing: the row stays delivered and the invitation dispatched.
	if st := dvStatus(t, a, issued.inv); st != models.InvitationDispatched {
		t.Fatalf("status %s", st)
	}
	clock.Advance(time.Hour)
	if again, _ := a.ClaimDeliveries(t.Context(), "probe", 10, time.Minute); len(again) != 0 {
		t.Fatalf("the stale lease's retry revived the row")
	}
}

func TestDeliveriesDropExpiredAndSweepExpiresInvitations(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, logs := wkLogger(t)
	task := wkProject(t, s, wkTaskOpts{})
	disp := &dvDispatcher{}
	d := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log})
	sent := dvIssue(t, s, task, invitations.DispatcherWebhook, time.Hour, nil)
	if res, _ := d.RunOnce(t.Context()); res.Sent != 1 {
		t.Fatalf("run %+v", res)
	}
	late := dvIssue(t, s, task, invitations.DispatcherWebhook, time.Hour, nil)
	clock.Advance(time.Hour)

	res, err := d.RunOnce(t.Context())
	if err != nil || res.Dropped != 1 || res.Sent != 0 || len(disp.calls()) != 1 {
		t.Fatalf("run %+v %v, %d dispatches", res, err, len(disp.calls()))
	}
	exp, err := d.Expire(t.Context())
	if err != nil || exp.Expired != 2 || exp.Tenants[task.Tenant].Expired != 2 {
		t.Fatalf("expire %+v %v", exp, err)
	}
	for _, i := range []dvIssued{sent, late} {
		if st := dvStatus(t, s, i.inv); st != models.InvitationExpired {
			t.Fatalf("%s: status %s", i.inv.ID, st)
		}
	}
	if h := wkGet(t, s, task.Tenant, task.ID).Health; h.Code != "" {
		t.Fatalf("expiry flagged the task: %+v", h)
	}
	dvSecretsAbsent(t, "logs", logs.String(), sent, late)
}

func TestDeliveriesGoOutOnAKickAndRecordRuns(t *testing.T) {
	s := wkSQLite(t).open(t, nil)
	log, logs := wkLogger(t)
	disp := &dvDispatcher{sent: make(chan invitations.Message, 4)}
	w := workers.New(s, workflow.NewLoopback(s), workers.Options{
		Owner: "node-a", DispatchEvery: time.Hour, SweepEvery: time.Hour, ReconcileAfter: time.Hour, DeliverEvery: time.Hour,
		Dispatchers: map[string]invitations.Dispatcher{invitations.DispatcherDevMailbox: disp},
		Deliveries:  workers.DeliveryOptions{BaseURL: dvBaseURL},
		Logger:      log,
	})
	s.NotifyDeliveries(w.KickDeliveries) // as cmd/web wires it
	defer s.NotifyDeliveries(nil)
	task := wkProject(t, s, wkTaskOpts{})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	time.Sleep(100 * time.Millisecond) // past the first poll: only a kick can send now

	start := time.Now()
	issued := dvIssue(t, s, task, invitations.DispatcherDevMailbox, time.Hour, nil)
	select {
	case m := <-disp.sent:
		if m.InvitationID != issued.inv.ID {
			t.Fatalf("sent %s", m.InvitationID)
		}
	case <-time.After(time.Second):
		t.Fatal("the invitation did not go out within a second of its commit")
	}
	t.Logf("kick latency %s", time.Since(start))
	wkEventually(t, time.Second, "dispatched status", func() bool { return dvStatus(t, s, issued.inv) == models.InvitationDispatched })
	stop()
	<-done

	runs, err := s.WorkerRuns(context.Background(), task.Tenant, models.WorkerDeliveries, 10)
	if err != nil || len(runs) != 1 || runs[0].Counts["sent"] != 1 || runs[0].Counts["claimed"] != 1 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	dvSecretsAbsent(t, "logs", logs.String(), issued)
}

func TestDeliveriesLeaseOutlastsTheBatch(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	task := wkProject(t, s, wkTaskOpts{})
	dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
	var stolen int
	disp := &dvDispatcher{fail: func(invitations.Message) error {
		// Five rounds of a minute may pass before this row's turn would end.
		clock.Advance(4*time.Minute + 50*time.Second)
		rows, err := s.ClaimDeliveries(context.Background(), "node-b", 10, time.Minute)
		if err != nil {
			t.Error(err)
		}
		stolen = len(rows)
		return nil
	}}
	res, err := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log, LeaseFor: time.Second, BatchSize: 10, Parallel: 2, Timeout: time.Minute}).RunOnce(t.Context())
	if err != nil || res.Sent != 1 || stolen != 0 {
		t.Fatalf("run %+v %v; another node claimed %d rows during the batch", res, err, stolen)
	}
}

func TestDeliveriesDropAClosedInvitationUnsent(t *testing.T) {
	s := wkSQLite(t).open(t, nil)
	log, logs := wkLogger(t)
	task := wkProject(t, s, wkTaskOpts{})
	revoked := dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
	db, err := wkSQL(t, s).DB()
	if err != nil {
		t.Fatal(err)
	}
	// As a revoke committed after issuance but before the first attempt leaves it.
	if _, err := db.Exec("UPDATE user_task_invitations SET status = 'revoked' WHERE id = ?", revoked.inv.ID); err != nil {
		t.Fatal(err)
	}
	disp := &dvDispatcher{}
	res, err := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log}).RunOnce(t.Context())
	if err != nil || res.Dropped != 1 || len(disp.calls()) != 0 {
		t.Fatalf("run %+v %v, %d dispatches", res, err, len(disp.calls()))
	}
	if st := dvStatus(t, s, revoked.inv); st != models.InvitationRevoked {
		t.Fatalf("status %s", st)
	}
	if h := wkGet(t, s, task.Tenant, task.ID).Health; h.Code != "" {
		t.Fatalf("a revoked invitation flagged the task: %+v", h)
	}
	dvSecretsAbsent(t, "logs", logs.String(), revoked)
}

func TestDeliveriesInterruptedByShutdownCountNoAttempt(t *testing.T) {
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	task := wkProject(t, s, wkTaskOpts{})
	dvIssue(t, s, task, invitations.DispatcherWebhook, 24*time.Hour, nil)
	ctx, cancel := context.WithCancel(t.Context())
	disp := &dvDispatcher{fail: func(invitations.Message) error { cancel(); return context.Canceled }}
	res, err := dvDeliverer(s, "node-a", disp, workers.DeliveryOptions{Logger: log, LeaseFor: time.Minute, BatchSize: 1}).RunOnce(ctx)
	if err != nil || res.Claimed != 1 || res.Failed+res.Sent+res.Abandoned != 0 {
		t.Fatalf("run %+v %v", res, err)
	}
	clock.Advance(time.Minute + time.Second)
	rows, err := s.ClaimDeliveries(t.Context(), "node-b", 10, time.Minute)
	if err != nil || len(rows) != 1 || rows[0].Attempts != 0 || rows[0].LastError != "" {
		t.Fatalf("after the lease: %+v %v", rows, err)
	}
}

package notify_test

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
)

func TestPeriodEnd(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name   string
		period models.DigestPeriod
		oldest string
		loc    *time.Location
		now    string
		end    string
		due    bool
	}{
		{"HourlyOpen", models.DigestHourly, "2026-12-10T10:30:00Z", berlin, "2026-12-10T10:59:59Z", "2026-12-10T11:00:00Z", false},
		{"HourlyEnded", models.DigestHourly, "2026-12-10T10:30:00Z", berlin, "2026-12-10T11:00:00Z", "2026-12-10T11:00:00Z", true},
		{"HourlyIsUTC", models.DigestHourly, "2026-12-10T10:30:00+05:30", berlin, "2026-12-10T05:00:00Z", "2026-12-10T06:00:00Z", false},
		{"DailyUTC", models.DigestDaily, "2026-12-10T23:59:00Z", time.UTC, "2026-12-11T00:00:00Z", "2026-12-11T00:00:00Z", true},
		// 23:30 UTC on 9 December is already 10 December in Berlin: the day ends at 23:00 UTC
		// on the 10th.
		{"DailyInZone", models.DigestDaily, "2026-12-09T23:30:00Z", berlin, "2026-12-10T22:59:00Z", "2026-12-10T23:00:00Z", false},
		// 29 March 2026 has 23 hours in Berlin (CET → CEST): it ends at 22:00 UTC.
		{"DailyDSTShortDay", models.DigestDaily, "2026-03-29T00:30:00+01:00", berlin, "2026-03-29T22:00:00Z", "2026-03-29T22:00:00Z", true},
		{"Off", models.DigestOff, "2026-12-10T10:30:00Z", berlin, "2026-12-10T10:31:00Z", "2026-12-10T10:31:00Z", true},
	} {
		end, due := notify.PeriodEnd(c.period, at(c.oldest), c.loc, at(c.now))
		if !end.Equal(at(c.end)) || due != c.due {
			t.Errorf("%s: end %v due %v, want %s %v", c.name, end.UTC(), due, c.end, c.due)
		}
	}
}

// digestStore is an in-memory notify.DigestStore with the contract's leases, on a clock the
// test moves.
type digestStore struct {
	mu     sync.Mutex
	now    time.Time
	rows   []models.Notification
	people map[string]models.Person
	tasks  map[string]models.Task
	gen    int64
}

func (s *digestStore) Now(context.Context) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now, nil
}

func (s *digestStore) DigestsWaiting(_ context.Context, limit int) ([]store.DigestWaiting, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	oldest := map[string]store.DigestWaiting{}
	for _, n := range s.rows {
		if n.Email != models.ChannelDigest {
			continue
		}
		k := n.Tenant + "/" + n.Recipient.ID
		if w, ok := oldest[k]; !ok || n.OccurredAt.Before(w.Oldest) {
			oldest[k] = store.DigestWaiting{Tenant: n.Tenant, Recipient: n.Recipient, Oldest: n.OccurredAt}
		}
	}
	var out []store.DigestWaiting
	for _, w := range oldest {
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b store.DigestWaiting) int { return a.Oldest.Compare(b.Oldest) })
	return out[:min(limit, len(out))], nil
}

func (s *digestStore) ClaimDigest(_ context.Context, owner string, w store.DigestWaiting, before time.Time, limit int, leaseFor time.Duration) ([]models.Notification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var idx []int
	for i, n := range s.rows {
		if n.Email == models.ChannelDigest && n.Tenant == w.Tenant && n.Recipient.Same(w.Recipient) && n.OccurredAt.Before(before) &&
			(n.Lease == nil || !n.Lease.ExpiresAt.After(s.now)) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(s.rows[a].OccurredAt.Compare(s.rows[b].OccurredAt), cmp.Compare(s.rows[a].ID, s.rows[b].ID))
	})
	var out []models.Notification
	for _, i := range idx[:min(limit, len(idx))] {
		s.gen++
		s.rows[i].Lease = &models.Lease{Owner: owner, Generation: s.gen, ExpiresAt: s.now.Add(leaseFor)}
		out = append(out, s.rows[i])
	}
	return out, nil
}

func (s *digestStore) SettleDigest(_ context.Context, ns []models.Notification) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range ns {
		i := slices.IndexFunc(s.rows, func(r models.Notification) bool { return r.ID == n.ID })
		if i < 0 || s.rows[i].Lease == nil || n.Lease == nil || s.rows[i].Lease.Generation != n.Lease.Generation || !s.rows[i].Lease.ExpiresAt.After(s.now) {
			return models.ErrLeaseLost
		}
	}
	for _, n := range ns {
		i := slices.IndexFunc(s.rows, func(r models.Notification) bool { return r.ID == n.ID })
		s.rows[i].Email, s.rows[i].Lease = models.ChannelDigested, nil
	}
	return nil
}

func (s *digestStore) Person(_ context.Context, tenant string, u models.ParticipantRef) (models.Person, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.people[tenant+"/"+u.ID]
	if !ok {
		return models.Person{}, models.ErrNotFound
	}
	p.Preferences = p.Preferences.Complete()
	return p, nil
}

func (s *digestStore) Get(_ context.Context, tenant, id string) (models.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[tenant+"/"+id]
	if !ok {
		return models.Task{}, models.ErrNotFound
	}
	return t, nil
}

func (s *digestStore) advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.now.Add(d)
}

func (s *digestStore) emailOf(id string) models.ChannelState {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.rows {
		if n.ID == id {
			return n.Email
		}
	}
	return "missing"
}

// sentDigests records the digests a notify.Mailer was asked to send.
type sentDigests struct {
	mu     sync.Mutex
	mails  [][]string // the notification ids of each digest
	period []models.DigestPeriod
	err    error
}

func (m *sentDigests) Send(context.Context, notify.Recipient, models.Notification, notify.Task) error {
	panic("a digest worker sends digests only")
}

func (m *sentDigests) SendDigest(_ context.Context, to notify.Recipient, period models.DigestPeriod, items []notify.Item) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	var ids []string
	for _, it := range items {
		if to.Address == "" || it.Task.Title == "" {
			panic("a digest without an address or a task")
		}
		ids = append(ids, it.Notification.ID)
	}
	m.mails = append(m.mails, ids)
	m.period = append(m.period, period)
	return nil
}

func (m *sentDigests) sent() [][]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.mails)
}

// newDigestStore holds Ada (t1) with the given preferences and two tasks.
func newDigestStore(now time.Time, prefs models.NotificationPreferences, zone string) *digestStore {
	return &digestStore{now: now,
		people: map[string]models.Person{"t1/ada": {Tenant: "t1", User: ada, Email: "ada@example.net", TimeZone: zone, Preferences: prefs}},
		tasks: map[string]models.Task{
			"t1/task-a": {ID: "task-a", Tenant: "t1", Title: "Approve invoice 7", Priority: 50},
			"t1/task-b": {ID: "task-b", Tenant: "t1", Title: "Check contract 9", Priority: 50},
		}}
}

func (s *digestStore) wait(id string, trigger models.NotificationTrigger, taskID string, at time.Time) {
	n := notification(id, trigger, taskID, at)
	n.State, n.Email = models.NotificationDone, models.ChannelDigest
	s.rows = append(s.rows, n)
}

func prefsWith(digest models.DigestPeriod, on ...models.NotificationTrigger) models.NotificationPreferences {
	p := models.DefaultNotificationPreferences()
	for _, t := range on {
		p.Email[t] = true
	}
	p.Digest = digest
	return p
}

func digester(t *testing.T, s *digestStore, m notify.Mailer) *notify.Digester {
	t.Helper()
	d, err := notify.NewDigester(s, notify.DigestOptions{Owner: "node-1", Mailer: m, LeaseFor: time.Minute, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDigesterHourly: the rows of an hour go out in one mail once the hour has ended; a row
// of the next hour waits for its own.
func TestDigesterHourly(t *testing.T) {
	ctx := context.Background()
	ten := time.Date(2026, 12, 10, 10, 0, 0, 0, time.UTC)
	s := newDigestStore(ten.Add(50*time.Minute), prefsWith(models.DigestHourly, models.TriggerTaskAvailable, models.TriggerDueSoon), "")
	s.wait("n1", models.TriggerTaskAvailable, "task-a", ten.Add(5*time.Minute))
	s.wait("n2", models.TriggerTaskAssigned, "task-b", ten.Add(20*time.Minute))
	s.wait("n3", models.TriggerDueSoon, "task-a", ten.Add(40*time.Minute))
	m := &sentDigests{}
	d := digester(t, s, m)

	if c, err := d.RunOnce(ctx); err != nil || c.Waiting != 1 || c.Mails != 0 {
		t.Fatalf("within the hour: %+v %v", c, err)
	}
	s.advance(20 * time.Minute) // 11:10
	s.wait("n4", models.TriggerOverdue, "task-b", ten.Add(65*time.Minute))
	c, err := d.RunOnce(ctx)
	if err != nil || c.Mails != 1 || c.Items != 3 || c.Unsent != 0 {
		t.Fatalf("after the hour: %+v %v", c, err)
	}
	if got := m.sent(); len(got) != 1 || !slices.Equal(got[0], []string{"n1", "n2", "n3"}) || m.period[0] != models.DigestHourly {
		t.Fatalf("digests %v %v", got, m.period)
	}
	for _, id := range []string{"n1", "n2", "n3"} {
		if e := s.emailOf(id); e != models.ChannelDigested {
			t.Errorf("%s: email %q", id, e)
		}
	}
	if e := s.emailOf("n4"); e != models.ChannelDigest {
		t.Fatalf("the next hour's row: email %q", e)
	}
	if c, _ := d.RunOnce(ctx); c.Mails != 0 || c.Waiting != 1 {
		t.Fatalf("a second run in the same hour: %+v", c)
	}
	s.advance(50 * time.Minute) // 12:00
	if c, _ := d.RunOnce(ctx); c.Mails != 1 || len(m.sent()) != 2 || !slices.Equal(m.sent()[1], []string{"n4"}) {
		t.Fatalf("the next hour: %+v %v", c, m.sent())
	}
}

// TestDigesterDailyInZone: a daily digest waits for the end of the person's own day.
func TestDigesterDailyInZone(t *testing.T) {
	ctx := context.Background()
	// 23:30 UTC on 9 December is 00:30 on the 10th in Berlin.
	s := newDigestStore(time.Date(2026, 12, 10, 0, 30, 0, 0, time.UTC), prefsWith(models.DigestDaily), "Europe/Berlin")
	s.wait("n1", models.TriggerTaskAssigned, "task-a", time.Date(2026, 12, 9, 23, 30, 0, 0, time.UTC))
	m := &sentDigests{}
	d := digester(t, s, m)
	if c, _ := d.RunOnce(ctx); c.Waiting != 1 || len(m.sent()) != 0 {
		t.Fatalf("before the Berlin day ended (UTC midnight passed): %+v", c)
	}
	s.advance(22*time.Hour + 30*time.Minute) // 23:00 UTC on the 10th: midnight in Berlin
	if c, _ := d.RunOnce(ctx); c.Mails != 1 || len(m.sent()) != 1 {
		t.Fatalf("after the Berlin day: %+v", c)
	}
}

// TestDigesterRelayDown: a digest whose send fails stays leased, is not sent again before the
// lease ends, and goes out once afterwards: nothing lost.
func TestDigesterRelayDown(t *testing.T) {
	ctx := context.Background()
	s := newDigestStore(time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC), prefsWith(models.DigestHourly), "")
	s.wait("n1", models.TriggerTaskAssigned, "task-a", time.Date(2026, 12, 10, 10, 5, 0, 0, time.UTC))
	s.wait("n2", models.TriggerOverdue, "task-b", time.Date(2026, 12, 10, 10, 6, 0, 0, time.UTC))
	if c, err := digester(t, s, downMailer(t)).RunOnce(ctx); err != nil || c.Failed != 1 || c.Mails != 0 {
		t.Fatalf("relay down: %+v %v", c, err)
	}
	if e := s.emailOf("n1"); e != models.ChannelDigest {
		t.Fatalf("a failed digest's row: email %q", e)
	}
	m := &sentDigests{}
	d := digester(t, s, m)
	if c, _ := d.RunOnce(ctx); c.Mails != 0 || len(m.sent()) != 0 {
		t.Fatalf("sent while the failed attempt's lease held: %+v", c)
	}
	s.advance(time.Minute)
	if c, _ := d.RunOnce(ctx); c.Mails != 1 || !slices.Equal(m.sent()[0], []string{"n1", "n2"}) {
		t.Fatalf("after the lease: %+v %v", c, m.sent())
	}
	if e := s.emailOf("n2"); e != models.ChannelDigested {
		t.Fatalf("email %q", e)
	}
}

// TestDigesterPreferenceChanged: rows waiting for a person who went back to no digest go out
// at once in one last digest; rows of a trigger whose email they turned off, and of a task
// that is gone, leave the queue unsent; a refused address settles the digest unsent.
func TestDigesterPreferenceChanged(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 10, 10, 30, 0, 0, time.UTC)
	s := newDigestStore(now, prefsWith(models.DigestOff), "")
	s.wait("n1", models.TriggerTaskAssigned, "task-a", now.Add(-20*time.Minute))
	s.wait("n2", models.TriggerTaskAvailable, "task-a", now.Add(-15*time.Minute)) // email off by default
	s.wait("n3", models.TriggerOverdue, "task-gone", now.Add(-10*time.Minute))
	s.wait("n4", models.TriggerOverdue, "task-b", now.Add(-5*time.Minute))
	m := &sentDigests{}
	c, err := digester(t, s, m).RunOnce(ctx)
	if err != nil || c.Mails != 1 || c.Items != 2 || c.Unsent != 2 {
		t.Fatalf("counts %+v %v", c, err)
	}
	if got := m.sent(); len(got) != 1 || !slices.Equal(got[0], []string{"n1", "n4"}) || m.period[0] != models.DigestOff {
		t.Fatalf("digests %v %v", got, m.period)
	}
	for _, id := range []string{"n1", "n2", "n3", "n4"} {
		if e := s.emailOf(id); e != models.ChannelDigested {
			t.Errorf("%s: email %q", id, e)
		}
	}
	t.Run("RefusedForGood", func(t *testing.T) {
		s := newDigestStore(now, prefsWith(models.DigestOff), "")
		s.wait("n1", models.TriggerTaskAssigned, "task-a", now.Add(-time.Minute))
		refused := &sentDigests{err: permanent{}}
		if c, _ := digester(t, s, refused).RunOnce(ctx); c.Failed != 1 || c.Unsent != 1 || s.emailOf("n1") != models.ChannelDigested {
			t.Fatalf("counts %+v, email %q", c, s.emailOf("n1"))
		}
	})
	t.Run("NoAddress", func(t *testing.T) {
		s := newDigestStore(now, prefsWith(models.DigestOff), "")
		p := s.people["t1/ada"]
		p.Email = ""
		s.people["t1/ada"] = p
		s.wait("n1", models.TriggerTaskAssigned, "task-a", now.Add(-time.Minute))
		m := &sentDigests{}
		if c, _ := digester(t, s, m).RunOnce(ctx); c.Unsent != 1 || len(m.sent()) != 0 {
			t.Fatalf("counts %+v", c)
		}
	})
}

// permanent is a mail failure retrying cannot fix.
type permanent struct{}

func (permanent) Error() string        { return "refused" }
func (permanent) Is(target error) bool { return target == notify.ErrPermanent }

// TestDigesterStopsWhenTheRelayIsDown: after one digest fails on the relay, the run leaves the
// other people's digests for the next run instead of waiting for the same relay again.
func TestDigesterStopsWhenTheRelayIsDown(t *testing.T) {
	now := time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC)
	s := newDigestStore(now, prefsWith(models.DigestHourly), "")
	s.people["t1/grace"] = models.Person{Tenant: "t1", User: grace, Email: "grace@example.net", Preferences: prefsWith(models.DigestHourly)}
	s.wait("n1", models.TriggerTaskAssigned, "task-a", now.Add(-2*time.Hour))
	g := notification("n2", models.TriggerTaskAssigned, "task-b", now.Add(-90*time.Minute))
	g.Recipient, g.State, g.Email = grace, models.NotificationDone, models.ChannelDigest
	s.rows = append(s.rows, g)
	c, err := digester(t, s, downMailer(t)).RunOnce(context.Background())
	if err != nil || c.Failed != 1 {
		t.Fatalf("counts %+v %v", c, err)
	}
	if s.rows[1].Lease != nil {
		t.Fatal("the second person's digest was tried on a relay that had just failed")
	}
}

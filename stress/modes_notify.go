package stress

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/workflow"
)

// Figure names of the notify mode.
const (
	figNotifyOff = "projection, notifications off"
	figNotifyOn  = "projection, notifications on"
	figDelivered = "member rows delivered (storm)"
	// notifyP95Target is issue 28's bound on the projection's p95 with the delivery worker
	// running, over the same without it.
	notifyP95Target = 1.2
	// digestSkip moves the digest worker's clock past any daily period of the run.
	digestSkip = 49 * time.Hour
	// drainRuns bounds the delivery runs after the projections: far more than T×G/100 batches.
	drainRuns = 100_000
)

// quiet discards the workers' logs: the run counts their outcomes, and the phase without
// notifications leaves group rows the worker drops (its directory lists only the other phase's
// tenant), a line each.
var quiet = slog.New(slog.DiscardHandler)

// ErrNotScratch refuses the notify mode on a database with tenants other than the stress
// runs': its delivery worker leases due notifications of every tenant and would deliver real
// people's notifications to its recording mailer.
var ErrNotScratch = errors.New("stress: the notify mode runs a delivery worker that takes every tenant's notifications: run it on a scratch database (only stress-… tenants)")

// notifyRound: phase off, T tasks offered to a group of G members projected by W writers with
// no delivery worker, in one tenant; phase on, the same in a fresh tenant with the delivery
// worker running beside them (the store's own worker, a static directory of the group, a mailer
// that records). Then every row is delivered and checked: T group rows expanded and done, T×G
// member rows shown, none pending; half the members get one mail per row (T×G/2 mails), the
// other half collect them for a daily digest (T×G/2 rows waiting), which one run of the digest
// worker, its clock two days ahead, sends as one mail per member. The two projection figures
// and their p95 ratio are reported (issue 28's target ≤ 1.2×), never judged.
func notifyRound(ctx context.Context, r *round) error {
	st, ok := r.opts.Target.(*StoreTarget)
	if !ok || r.opts.Store == nil {
		return errors.New("stress: the notify mode drives the store in this process only (no --url): it runs the delivery worker beside the projections")
	}
	if err := scratchOnly(ctx, r.opts.Store); err != nil {
		return err
	}
	members := r.opts.Members
	off, on := r.tenant+"-off", r.tenant // the round's audit covers on; checkNotify audits off

	// Off: the projection's rows are written (one group row per task) and nothing delivers them.
	r.projectMeasured(ctx, st, off, r.rep.meter(figNotifyOff, ""))

	if err := setPreferences(ctx, r.opts.Store, on, members); err != nil {
		return err
	}
	mailer := newRecordingMailer()
	dir := notifyDirectory(on, members)
	d := notify.NewDeliverer(r.opts.Store, notify.Options{Owner: "stress-" + r.tenant, BaseURL: "https://stress.invalid",
		Directory: dir, Mailer: mailer, Logger: quiet})
	var mu sync.Mutex
	var got notify.Counts
	var workErr error
	tally := func(res notify.Result) {
		mu.Lock()
		got.Add(res.Tenants[on])
		mu.Unlock()
	}
	stop := make(chan struct{})
	start := time.Now()
	var worker sync.WaitGroup
	worker.Go(func() { // as a node's worker, woken after each commit, polls while there is work
		for {
			res, err := d.RunOnce(ctx)
			if err != nil {
				workErr = err
				return
			}
			tally(res)
			if res.Claimed == 0 {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
		}
	})
	r.projectMeasured(ctx, st, on, r.rep.meter(figNotifyOn, ""))
	close(stop)
	worker.Wait()
	if workErr != nil {
		return fmt.Errorf("delivery: %w", workErr)
	}
	for range drainRuns { // what the worker had not reached when the projections ended
		res, err := d.RunOnce(ctx)
		if err != nil {
			return fmt.Errorf("delivery: %w", err)
		}
		tally(res)
		if res.Claimed == 0 {
			break
		}
	}
	// From the first projection until the worker found nothing more to do: the storm's
	// delivery rate (mails included, the digests not).
	r.rep.meter(figDelivered, "").rate(got.Members, time.Since(start))
	return r.checkNotify(ctx, on, got, mailer, dir)
}

// checkNotify records the notify mode's invariants over tenant.
func (r *round) checkNotify(ctx context.Context, tenant string, got notify.Counts, mailer *recordingMailer, dir directory.Static) error {
	t, g := r.opts.Tasks, r.opts.Members
	single, digest := g/2, g-g/2
	r.rep.check("notify: group rows expanded", t, got.Expanded)
	r.rep.check("notify: member rows written", t*g, got.Members)
	r.rep.check("notify: member rows shown", t*g, got.Shown)
	r.rep.check("notify: mails sent", t*single, got.Emailed)
	r.rep.check("notify: mails left for the digest", t*digest, got.Digest)
	r.rep.check("notify: retried, failed or dropped", 0, got.Retried+got.Failed+got.Dropped)
	sent, _, _ := mailer.counts(tenant)
	r.rep.check("notify: mails the mailer received", t*single, sent)
	r.rep.check("notify: notifications mailed twice", 0, mailer.repeats())

	shown := 0
	for i := range g {
		n, err := r.opts.Store.UnreadNotifications(ctx, tenant, member(tenant, i), 0)
		if err != nil {
			return fmt.Errorf("unread notifications: %w", err)
		}
		shown += n
	}
	r.rep.check("notify: unread rows in the members' in-app lists", t*g, shown)
	if err := r.countNotificationRows(ctx, tenant); err != nil {
		return err
	}

	// As a server wires it (cmd/web): the directory's address, visibility checked again.
	s := r.opts.Store
	dg, err := notify.NewDigester(laterClock{s, digestSkip}, notify.DigestOptions{Owner: "stress-" + r.tenant, Mailer: mailer, Logger: quiet,
		Address: func(ctx context.Context, p models.Person) (string, error) { return dir.Contact(ctx, p.Tenant, p.User) },
		Visible: func(ctx context.Context, t models.Task, p models.Person) (bool, error) {
			return tasks.RecipientSees(ctx, t, p.User, p.Manager, dir, func(ctx context.Context) (bool, error) {
				return s.HasActed(ctx, t.Tenant, t.ID, p.User)
			})
		}})
	if err != nil {
		return err
	}
	var dc notify.DigestCounts
	for range g + 1 { // one run sends every digest due; more only when a digest exceeds its limit
		c, err := dg.RunOnce(ctx)
		if err != nil {
			return fmt.Errorf("digest: %w", err)
		}
		dc.Mails, dc.Items, dc.Unsent, dc.Failed = dc.Mails+c.Mails, dc.Items+c.Items, dc.Unsent+c.Unsent, dc.Failed+c.Failed
		if c.Mails == 0 && c.Unsent == 0 {
			break
		}
	}
	_, digests, items := mailer.counts(tenant)
	r.rep.check("notify: digest mails (one per digest member)", digest, digests)
	r.rep.check("notify: rows in the digests", t*digest, items)
	r.rep.check("notify: digest rows unsent or failed", 0, dc.Unsent+dc.Failed)
	return r.auditTenant(ctx, r.rep.Mode+" (notifications off)", tenant+"-off")
}

// countNotificationRows counts the tenant's rows in the table (SQL only; the document store's
// are counted by the worker's and the in-app list's figures above): group rows done, member
// rows done and shown, nothing pending, the digest's rows waiting.
func (r *round) countNotificationRows(ctx context.Context, tenant string) error {
	if r.opts.SQL == nil {
		r.rep.note("the notification rows were counted through the worker and the in-app lists (the direct count is SQL's)")
		return nil
	}
	db, err := r.opts.SQL.DB()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, rawSQL(r.opts.SQL.Dialect(), "SELECT recipient_type, state, COALESCE(email_state, ''), "+
		"CASE WHEN visible_at IS NULL THEN 0 ELSE 1 END, COUNT(*) FROM user_task_notifications WHERE tenant_id = ? "+
		"GROUP BY recipient_type, state, COALESCE(email_state, ''), CASE WHEN visible_at IS NULL THEN 0 ELSE 1 END"), tenant)
	if err != nil {
		return fmt.Errorf("count notifications: %w", err)
	}
	defer rows.Close()
	var groupDone, userShownDone, pending, waiting, other int
	for rows.Next() {
		var typ, state, email string
		var visible, n int
		if err := rows.Scan(&typ, &state, &email, &visible, &n); err != nil {
			return err
		}
		switch {
		case state == string(models.NotificationPending):
			pending += n
		case typ == string(models.GroupParticipant) && state == string(models.NotificationDone) && visible == 0:
			groupDone += n
		case typ == string(models.UserParticipant) && state == string(models.NotificationDone) && visible == 1:
			userShownDone += n
			if email == string(models.ChannelDigest) {
				waiting += n
			}
		default:
			other += n
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	t, g := r.opts.Tasks, r.opts.Members
	r.rep.check("notify: rows counted: group rows done", t, groupDone)
	r.rep.check("notify: rows counted: member rows done and shown", t*g, userShownDone)
	r.rep.check("notify: rows counted: pending", 0, pending)
	r.rep.check("notify: rows counted: waiting for the digest", t*(g-g/2), waiting)
	r.rep.check("notify: rows counted: in any other state", 0, other)
	return nil
}

// projectMeasured projects the round's T group tasks into tenant with W writers, each
// projection timed on m, and checks that each created its task (phase names it).
func (r *round) projectMeasured(ctx context.Context, st *StoreTarget, tenant string, m *meter) {
	t := &tally{}
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i := w; i < r.opts.Tasks; i += r.opts.Writers {
			t.observe(m, func() (Outcome, error) {
				_, o, err := st.Project(ctx, tenant, notifyBookmark(tenant, i))
				return o, err
			})
		}
	}, m)
	phaseName := "on"
	if strings.HasSuffix(tenant, "-off") {
		phaseName = "off"
	}
	r.rep.check("notify: projections created, notifications "+phaseName, r.opts.Tasks, t.n(Applied))
	r.rep.check("notify: projection errors, notifications "+phaseName, 0, t.n(Failed)+t.n(Conflict)+t.n(Repeated))
}

// notifyBookmark is task i of the notify mode: offered to the notify group.
func notifyBookmark(tenant string, i int) workflow.ProjectionRequest {
	req := bookmark(tenant, "notify", i, false)
	req.Task.CandidateGroups = []workflow.Participant{{ID: notifyGroup}}
	return req
}

// scratchOnly fails with ErrNotScratch when s holds a tenant that no stress run made.
func scratchOnly(ctx context.Context, s store.Store) error {
	tenants, err := s.Tenants(ctx)
	if err != nil {
		return err
	}
	for _, t := range tenants {
		if !strings.HasPrefix(t, "stress-") {
			return ErrNotScratch
		}
	}
	return nil
}

// notifyRatio notes the p95 of the projection with notifications on over off, against the target.
func (r *Report) notifyRatio() {
	off, on := r.meters[figNotifyOff], r.meters[figNotifyOn]
	if off == nil || on == nil {
		return
	}
	fo, fn := off.figure(""), on.figure("")
	if fo.P95 <= 0 {
		return
	}
	x := fn.P95 / fo.P95
	verdict := "within"
	if x > notifyP95Target {
		verdict = "above"
	}
	r.note(fmt.Sprintf("projection p95 with notifications on / off: %.2f ms / %.2f ms = %.2f× (%s the target ≤ %.1f×; an observation, not a check)",
		fn.P95, fo.P95, x, verdict, notifyP95Target))
}

// note adds a note once.
func (r *Report) note(s string) {
	for _, n := range r.Notes {
		if n == s {
			return
		}
	}
	r.Notes = append(r.Notes, s)
}

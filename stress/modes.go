package stress

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// Figure names; each write figure is compared with the raw transaction run at the same
// concurrency, the inbox page with the raw indexed SELECT.
const (
	figCAS        = "complete, contended (cas)"
	figClaim      = "claim, contended"
	figMixed      = "claim + complete (each op)"
	figThrough    = "through to Completed (tasks)"
	figPage       = "inbox page (available, 50)"
	figBurst      = "projection with duplicates"
	rawContended  = "cas transaction, contended"
	rawUncontend  = "cas transaction"
	rawPage       = "indexed SELECT page"
	rawFullClaim  = "claim transaction, full shape"
	rawFullMixed  = "claim + complete, full shape"
	rawFullBurst  = "projection, full shape"
	pageSize      = 50
	settleTimeout = 2 * time.Minute
)

// round is one round of a mode in its own tenant.
type round struct {
	opts   Options
	rep    *Report
	tenant string
	raw    *baseline     // nil without a database
	full   *fullBaseline // nil without a database
}

// tally counts one round's outcomes of a figure (the meter counts every round).
type tally [Failed + 1]atomic.Int64

func (t *tally) observe(m *meter, fn func() (Outcome, error)) Outcome {
	o := m.observe(fn)
	t[o].Add(1)
	return o
}

func (t *tally) n(o Outcome) int64 { return t[o].Load() }

// project loads the round's tasks with W concurrent writers (not measured: it is the setup).
func (r *round) project(ctx context.Context, kind string, assigned bool) ([]Item, error) {
	items := make([]Item, r.opts.Tasks)
	var mu sync.Mutex
	var first error
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i := w; i < len(items); i += r.opts.Writers {
			it, _, err := r.opts.Target.Project(ctx, r.tenant, bookmark(r.tenant, kind, i, assigned))
			if err != nil {
				mu.Lock()
				first = cmpErr(first, fmt.Errorf("project task %d: %w", i, err))
				mu.Unlock()
				return
			}
			items[i] = it
		}
	})
	return items, first
}

// projection is a paced mixed round's projections, made by the workers one task at a time:
// the first failure stops every worker and ends the round with it, as project's does.
type projection struct {
	mu  sync.Mutex
	err error
}

// one projects task i into items[i] and reports whether the worker may go on.
func (p *projection) one(ctx context.Context, r *round, items []Item, i int) bool {
	p.mu.Lock()
	failed := p.err != nil
	p.mu.Unlock()
	if failed {
		return false
	}
	it, _, err := r.opts.Target.Project(ctx, r.tenant, bookmark(r.tenant, "mixed", i, false))
	if err != nil {
		p.mu.Lock()
		p.err = cmpErr(p.err, fmt.Errorf("project task %d: %w", i, err))
		p.mu.Unlock()
		return false
	}
	items[i] = it
	return true
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// contend has every writer try the same revision-checked command on every task, in the same
// order, so each task sees W concurrent attempts.
func (r *round) contend(ctx context.Context, m *meter, t *tally, items []Item, do func(ctx context.Context, w, i int, it Item) (Outcome, error)) {
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i, it := range items {
			t.observe(m, func() (Outcome, error) { return do(ctx, w, i, it) })
		}
	}, m)
}

// checkRace records the counts of a race: exactly one winner per task, the rest conflicts.
func (r *round) checkRace(name string, t *tally) {
	n, w := int64(r.opts.Tasks), int64(r.opts.Writers)
	r.rep.check(name+": applied", n, t.n(Applied))
	r.rep.check(name+": conflicts", n*(w-1), t.n(Conflict))
	r.rep.check(name+": errors", 0, t.n(Failed))
}

// facts inspects every task and counts those for which ok holds.
func (r *round) facts(ctx context.Context, items []Item, ok func(Facts) bool) (int, error) {
	n := 0
	for _, it := range items {
		f, err := r.opts.Inspector.Inspect(ctx, r.tenant, it.ID)
		if err != nil {
			return 0, fmt.Errorf("inspect %s: %w", it.ID, err)
		}
		if ok(f) {
			n++
		}
	}
	return n, nil
}

// checkFacts records how many tasks satisfy ok, which must be all of them.
func (r *round) checkFacts(ctx context.Context, name string, items []Item, ok func(Facts) bool) error {
	n, err := r.facts(ctx, items, ok)
	r.rep.check(name, len(items), n)
	return err
}

// oneOutbox: exactly one outbox row, or the inspector cannot see them.
func oneOutbox(f Facts) bool { return f.Outbox == 1 || f.Outbox < 0 }

// casRound: T tasks assigned to one person; W writers each complete every task at the revision
// it was projected with. Exactly one completion per task is applied: one completion-requested
// event and one outbox row per task, T×(W−1) conflicts.
func casRound(ctx context.Context, r *round) error {
	items, err := r.project(ctx, "cas", true)
	if err != nil {
		return err
	}
	owner := person(r.tenant, ownerID)
	m, t := r.rep.meter(figCAS, rawContended), &tally{}
	r.contend(ctx, m, t, items, func(ctx context.Context, w, i int, it Item) (Outcome, error) {
		_, o, err := r.opts.Target.Complete(ctx, owner, it.ID, it.Revision, fmt.Sprintf("cas-%d-%d", w, i))
		return o, err
	})
	r.checkRace("cas", t)
	err = r.checkFacts(ctx, "cas: tasks with one completion-requested event and one outbox row", items, func(f Facts) bool {
		return f.Events[models.EventCompletionRequested] == 1 && oneOutbox(f) && (f.Status == models.StatusCompleting || f.Status == models.StatusCompleted)
	})
	if err != nil {
		return err
	}
	if fin, ok := r.opts.Target.(Finalizer); ok {
		// Leave nothing waiting on a runtime: a server beside would deliver it to its own.
		if err := fin.Finalize(ctx, r.tenant, ids(items)); err != nil {
			return fmt.Errorf("finalize: %w", err)
		}
	}
	return r.raw.contended(ctx, r.rep.meter(rawContended, ""), r.opts.Tasks, r.opts.Writers)
}

// claimRound: T tasks offered to a group; W members each claim every task at its projected
// revision. Exactly one claim per task wins.
func claimRound(ctx context.Context, r *round) error {
	items, err := r.project(ctx, "claim", false)
	if err != nil {
		return err
	}
	m, t := r.rep.meter(figClaim, rawContended), &tally{}
	r.contend(ctx, m, t, items, func(ctx context.Context, w, i int, it Item) (Outcome, error) {
		_, o, err := r.opts.Target.Claim(ctx, claimer(r.tenant, w), it.ID, it.Revision, fmt.Sprintf("claim-%d-%d", w, i))
		return o, err
	})
	r.checkRace("claim", t)
	err = r.checkFacts(ctx, "claim: tasks assigned to one claimer with one claimed event", items, func(f Facts) bool {
		return f.Status == models.StatusAssigned && f.Events[models.EventClaimed] == 1 && f.Assignee != "" && f.Outbox <= 0
	})
	if err != nil {
		return err
	}
	if err := r.raw.contended(ctx, r.rep.meter(rawContended, ""), r.opts.Tasks, r.opts.Writers); err != nil {
		return err
	}
	if r.full == nil {
		return nil
	}
	return r.full.contended(ctx, r, r.rep.fullShape(figClaim, rawFullClaim))
}

// readers is the mixed mode's reader count: half the writers, at least one.
func (r *round) readers() int { return max(1, r.opts.Writers/2) }

// pageQueries are the inbox queries the readers cycle through: filters, search and sorts.
func pageQueries() []ListQuery {
	three := 3
	return []ListQuery{
		{Scope: models.ScopeAvailable, Sort: models.SortCreated, Descending: true},
		{Scope: models.ScopeAvailable, Search: "mixed 1", Sort: models.SortTitle},
		{Scope: models.ScopeAvailable, Tag: "mixed", PriorityFrom: &three, Sort: models.SortPriority, Descending: true},
		{Scope: models.ScopeAvailable, Sort: models.SortDue},
	}
}

// mixedRound: W workers claim and complete T group tasks while readers page the inbox with
// filters and search (and, over HTTP, managers hold the live stream open: they see every task,
// so each must hear of the changes); the loopback runtime finalizes every completion. Every
// task ends Completed with one claimed, one completion-requested and one completed event and
// one outbox row. Paced (Options.Pace), the round is a busy tenant's steady day instead of a
// race: each worker projects, claims and completes one task after the other, every write
// waiting its turn at Pace a second, and the readers read Pace pages a second. Unpaced, every
// task is projected first (setup, not measured) and the readers read as fast as they can.
func mixedRound(ctx context.Context, r *round) error {
	paced := r.opts.Pace > 0
	items := make([]Item, r.opts.Tasks)
	if !paced {
		var err error
		if items, err = r.project(ctx, "mixed", false); err != nil {
			return err
		}
	}
	subsCtx, stopSubs := context.WithCancel(ctx)
	defer stopSubs()
	var received []func() int
	if sub, ok := r.opts.Target.(Subscriber); ok {
		for w := range r.opts.Writers {
			n, err := sub.Subscribe(subsCtx, watcher(r.tenant, w))
			if err != nil {
				return fmt.Errorf("subscribe: %w", err)
			}
			received = append(received, n)
		}
	}
	work := make(chan int, len(items))
	for i := range items {
		work <- i
	}
	close(work)
	writes, pages := r.rep.meter(figMixed, rawUncontend), r.rep.meter(figPage, rawPage)
	wt, pt := &tally{}, &tally{}
	done := make(chan struct{})
	var readers sync.WaitGroup
	reads := newPacer(r.opts.Pace)
	readers.Go(func() {
		phase(ctx, r.readers(), func(ctx context.Context, j int) {
			r.read(ctx, r.opts.Target, claimer(r.tenant, 1000+j), reads, pages, pt, done)
		}, pages)
	})
	// The tasks whose completion was applied, for the in-process runtime below.
	completed := make(chan string, len(items))
	if fin, ok := r.opts.Target.(Finalizer); ok {
		// As a server's runtime would, finalize completions while the workers run.
		readers.Go(func() { r.finalizeUntil(ctx, fin, completed, done) })
	}
	pace := newPacer(r.opts.Pace)
	var projected projection
	start := time.Now()
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		a := claimer(r.tenant, w)
		for i := range work {
			if paced && (pace.wait(ctx) != nil || !projected.one(ctx, r, items, i)) {
				return
			}
			if pace.wait(ctx) != nil {
				return // cancelled: the checks below count what is missing
			}
			var rev int
			o := wt.observe(writes, func() (Outcome, error) {
				it, o, err := r.opts.Target.Claim(ctx, a, items[i].ID, items[i].Revision, fmt.Sprintf("mixed-claim-%d", i))
				rev = it.Revision
				return o, err
			})
			if o != Applied || pace.wait(ctx) != nil {
				continue
			}
			o = wt.observe(writes, func() (Outcome, error) {
				_, o, err := r.opts.Target.Complete(ctx, a, items[i].ID, rev, fmt.Sprintf("mixed-complete-%d", i))
				return o, err
			})
			if o == Applied {
				completed <- items[i].ID
			}
		}
	}, writes)
	close(done)
	readers.Wait()
	if projected.err != nil {
		return projected.err
	}
	r.rep.check("mixed: claims and completions applied", 2*len(items), wt.n(Applied))
	r.rep.check("mixed: write errors and conflicts", 0, wt.n(Failed)+wt.n(Conflict))
	r.rep.check("mixed: page errors", 0, pt.n(Failed))
	settled, err := r.settle(ctx, items)
	if err != nil {
		return err
	}
	// From the first claim until the loopback runtime has finalized the last task.
	r.rep.meter(figThrough, rawUncontend).rate(len(items), settled.Sub(start))
	stopSubs()
	if len(received) > 0 {
		heard := 0
		for _, n := range received {
			if n() > 0 {
				heard++
			}
		}
		r.rep.check("mixed: live subscribers that received changes", len(received), heard)
	}
	err = r.checkFacts(ctx, "mixed: tasks Completed with one event of each step and one outbox row", items, func(f Facts) bool {
		return f.Status == models.StatusCompleted && f.Events[models.EventClaimed] == 1 &&
			f.Events[models.EventCompletionRequested] == 1 && f.Events[models.EventCompleted] == 1 && oneOutbox(f)
	})
	if err != nil {
		return err
	}
	if err := r.full.claimComplete(ctx, r, r.rep.fullShape(figMixed, rawFullMixed)); err != nil {
		return err
	}
	return r.raw.mixed(ctx, r.rep.meter(rawUncontend, ""), r.rep.meter(rawPage, ""), r.opts.Tasks, r.opts.Writers, r.readers())
}

// read pages the inbox through target, cycling through the queries, until done is closed;
// each reader reads at least one page; a paced round's pages wait their turn at pace (before
// the timing, as the writes do).
func (r *round) read(ctx context.Context, target Target, a models.Actor, pace *pacer, m *meter, t *tally, done <-chan struct{}) {
	qs := pageQueries()
	for n := 0; ; n++ {
		q := qs[n%len(qs)]
		q.Limit = pageSize
		for pages := 0; pages < 4; pages++ {
			if pace.wait(ctx) != nil {
				return
			}
			var next string
			t.observe(m, func() (Outcome, error) {
				p, err := target.List(ctx, a, q)
				if err != nil {
					return Failed, err
				}
				next = p.Next
				return Applied, nil
			})
			if q.Cursor = next; next == "" {
				break
			}
		}
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		default:
		}
	}
}

// finalizeUntil finalizes each task as its completion is applied, until done is closed; a
// failed one is tried again a little later (settle finalizes what is left). It touches only
// the completed tasks, as a runtime hears only of those: reading every task of the round on
// every pass would load the store beside the workers and count against the store's figures.
func (r *round) finalizeUntil(ctx context.Context, fin Finalizer, completed <-chan string, done <-chan struct{}) {
	var failed []string
	for {
		select {
		case id := <-completed:
			if err := fin.Finalize(ctx, r.tenant, []string{id}); err != nil {
				failed = append(failed, id)
			}
		case <-time.After(10 * time.Millisecond):
			if len(failed) > 0 {
				retry := failed
				failed = nil
				for _, id := range retry {
					if err := fin.Finalize(ctx, r.tenant, []string{id}); err != nil {
						failed = append(failed, id)
					}
				}
			}
		case <-done:
			return
		case <-ctx.Done():
			return
		}
	}
}

func ids(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// settle waits until the loopback runtime has finalized every task, playing it when the
// target has no server behind it, and returns when it saw the last one finalized: the moment
// no task of the tenant was transitional any more (one list request every 50 ms), confirmed by
// every task's facts. The facts are read only then, because reading them takes seconds (two
// requests per task over HTTP) and would be timed as if the runtime took them (issue 27).
func (r *round) settle(ctx context.Context, items []Item) (time.Time, error) {
	deadline := time.Now().Add(settleTimeout)
	for {
		if fin, ok := r.opts.Target.(Finalizer); ok {
			if err := fin.Finalize(ctx, r.tenant, ids(items)); err != nil {
				return time.Time{}, fmt.Errorf("finalize: %w", err)
			}
		}
		waiting, err := r.opts.Inspector.Transitional(ctx, r.tenant)
		if err != nil {
			return time.Time{}, err
		}
		settled := time.Now()
		if late := time.Now().After(deadline); !waiting || late {
			n, err := r.facts(ctx, items, func(f Facts) bool { return f.Status == models.StatusCompleted })
			if err != nil || n == len(items) {
				return settled, err
			}
			if late {
				r.rep.check("mixed: tasks finalized within "+settleTimeout.String(), len(items), n)
				return settled, nil
			}
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// burstRound: W writers deliver every one of T bookmarks, in the same order, so each bookmark
// arrives W times at once. Exactly one delivery per bookmark creates its task; the others
// answer it.
func burstRound(ctx context.Context, r *round) error {
	m, t := r.rep.meter(figBurst, rawUncontend), &tally{}
	ids := make([]atomic.Value, r.opts.Tasks)
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i := range r.opts.Tasks {
			t.observe(m, func() (Outcome, error) {
				it, o, err := r.opts.Target.Project(ctx, r.tenant, bookmark(r.tenant, "burst", i, false))
				if err == nil {
					ids[i].CompareAndSwap(nil, it.ID)
				}
				return o, err
			})
		}
	}, m)
	n, w := int64(r.opts.Tasks), int64(r.opts.Writers)
	r.rep.check("burst: created", n, t.n(Applied))
	r.rep.check("burst: duplicates answered", n*(w-1), t.n(Repeated))
	r.rep.check("burst: errors and conflicts", 0, t.n(Failed)+t.n(Conflict))
	count, err := r.opts.Inspector.Count(ctx, r.tenant)
	if err != nil {
		return err
	}
	r.rep.check("burst: tasks in the tenant", n, count)
	var items []Item
	for i := range ids {
		if id, ok := ids[i].Load().(string); ok {
			items = append(items, Item{ID: id})
		}
	}
	err = r.checkFacts(ctx, "burst: tasks with one created event", items, func(f Facts) bool {
		return f.Events[models.EventCreated] == 1
	})
	if err != nil {
		return err
	}
	if err := r.full.burst(ctx, r, r.rep.fullShape(figBurst, rawFullBurst)); err != nil {
		return err
	}
	return r.raw.uncontended(ctx, r.rep.meter(rawUncontend, ""), r.opts.Tasks, r.opts.Writers)
}

// audit runs the store's audit over the round's tenant: the counters and every task.
func (r *round) audit(ctx context.Context) error {
	if r.opts.Store == nil {
		return nil
	}
	return r.auditTenant(ctx, r.rep.Mode, r.tenant)
}

// auditTenant records the audit's findings over tenant, which must be none.
func (r *round) auditTenant(ctx context.Context, name, tenant string) error {
	found, err := r.opts.Store.AuditTenantCounters(ctx, tenant)
	if err != nil {
		return err
	}
	findings := len(found)
	f := store.AuditFilter{Tenant: tenant}
	for {
		p, err := r.opts.Store.Audit(ctx, f, 200)
		if err != nil {
			return err
		}
		findings += len(p.Findings)
		if p.Done || p.Tasks == 0 {
			break
		}
		f.AfterTenant, f.AfterID = p.LastTenant, p.LastID
	}
	r.rep.check(name+": audit findings", 0, findings)
	return nil
}

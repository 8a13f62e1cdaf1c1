package workers

import (
	"context"
	"errors"

	"usertasks/models"
)

// DeadlineObserver hears each deadline the due sweep settles (the metrics count them by
// outcome: fired, skipped). It must not block.
type DeadlineObserver interface {
	DeadlineSettled(outcome string)
}

// maxDeadlineManagers bounds who a notify-managers action tells: the recorded managers of the
// tenant, by user id.
const maxDeadlineManagers = 100

// sweepDeadlines fires the due deadlines (SPEC 10.4), page by page, after the due tasks. Each
// firing is its own transaction, exactly once on any number of nodes (the store's guard), so a
// page another node swept meanwhile only costs the conflicts. A deadline whose task waits for
// the runtime stays pending and is passed over until a later sweep; a corrupt one is logged and
// passed over.
func (s *DueSweeper) sweepDeadlines(ctx context.Context, res *SweepResult, renew func() error) error {
	managers := map[string][]models.ParticipantRef{}
	var after *models.DeadlineKey
	for {
		page, err := s.store.DueDeadlines(ctx, s.o.PageSize, after)
		if err != nil {
			return err
		}
		for _, d := range page {
			if err := s.fireDeadline(ctx, d, managers, res); err != nil {
				return err
			}
		}
		if len(page) < s.o.PageSize {
			return nil
		}
		k := page[len(page)-1].Key()
		after = &k
		if err := renew(); err != nil {
			return err
		}
	}
}

// fireDeadline fires one deadline; only a store failure ends the run.
func (s *DueSweeper) fireDeadline(ctx context.Context, d models.Deadline, managers map[string][]models.ParticipantRef, res *SweepResult) error {
	m, ok := managers[d.Tenant]
	if !ok {
		people, err := s.store.Managers(ctx, d.Tenant, maxDeadlineManagers)
		if err != nil {
			return err
		}
		for _, p := range people {
			ref := p.User
			ref.Tenant = d.Tenant
			m = append(m, ref)
		}
		managers[d.Tenant] = m
	}
	f, err := s.store.FireDeadline(ctx, d.Tenant, d.TaskID, d.Index, m)
	switch {
	case errors.Is(err, models.ErrConflict), errors.Is(err, models.ErrNotFound):
		// Settled by another node, a task waiting for the runtime, a task purged meanwhile.
		return nil
	case errors.Is(err, models.ErrCorrupt):
		s.log.Error("due sweep skipped a corrupt deadline", "tenant", d.Tenant, "taskId", d.TaskID, "index", d.Index)
		return nil
	case err != nil:
		return err
	}
	outcome := string(f.Deadline.State)
	if f.Deadline.State == models.DeadlineFired {
		res.count(d.Tenant, func(c *SweepCounts) { c.Escalated++ })
	} else {
		res.count(d.Tenant, func(c *SweepCounts) { c.DeadlinesSkipped++ })
	}
	if s.o.Deadlines != nil {
		s.o.Deadlines.DeadlineSettled(outcome)
	}
	return nil
}

// sweepOptions are o's sweep options, with the run observer as the deadlines' observer when
// it counts them and none was given.
func sweepOptions(o Options) SweepOptions {
	so := o.Sweep
	if d, ok := o.Observer.(DeadlineObserver); ok && so.Deadlines == nil {
		so.Deadlines = d
	}
	return so
}

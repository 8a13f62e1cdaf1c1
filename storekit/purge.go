package storekit

import (
	"context"
	"time"

	"usertasks/models"
)

// The retention purge (SPEC 7, persistence contract "Retention and cleanup") as every store
// runs it: the policy's check and defaults, one step per kind of row in a fixed order, each
// with its age, and the running totals and progress. How a step chooses and removes its rows
// is the store's (SQL: one write transaction per page; documents: a task marked, then deleted,
// resumable); it goes page by page through PurgePages.

// PurgeStep removes (or, in a dry run, counts) the rows of one kind of tenant older than age
// under p, adding them to total; progress, when set, follows every page that removed something.
type PurgeStep func(ctx context.Context, tenant string, age time.Duration, p models.RetentionPolicy,
	total *models.PurgeCounts, progress func(models.PurgeCounts)) error

// PurgeSteps are a store's steps, one per age of models.RetentionPolicy.
type PurgeSteps struct {
	Terminal      PurgeStep // terminal tasks with every row they hold (TerminalAge)
	Invitations   PurgeStep // revoked or lapsed invitations with their deliveries and sessions (InvitationAge)
	GuestSessions PurgeStep // ended guest sessions (GuestSessionAge)
	Deliveries    PurgeStep // finished invitation deliveries (OutboxAge)
	Resumptions   PurgeStep // finished resumptions of terminal tasks (OutboxAge)
	Notifications PurgeStep // settled notifications (NotificationAge); nil: the store keeps none
}

// Purge applies p to tenant's rows with the store's steps, in order, and returns what went (in
// a dry run: what would go, each step counted on its own, so a row that two steps cover is
// counted by both). progress, when set, receives the running totals after every page that
// removed something, and a dry run's once at the end. A step that fails ends the purge with its
// error and the totals so far; what went stays gone, and a later run goes on from there.
func Purge(ctx context.Context, steps PurgeSteps, tenant string, p models.RetentionPolicy, progress func(models.PurgeCounts)) (models.PurgeCounts, error) {
	var total models.PurgeCounts
	if err := p.Check(); err != nil {
		return total, err
	}
	if p.PageSize == 0 {
		p.PageSize = models.DefaultPurgePageSize
	}
	for _, st := range []struct {
		age time.Duration
		run PurgeStep
	}{
		{p.TerminalAge, steps.Terminal},
		{p.InvitationAge, steps.Invitations},
		{p.GuestSessionAge, steps.GuestSessions},
		{p.OutboxAge, steps.Deliveries},
		{p.OutboxAge, steps.Resumptions},
		{p.NotificationAge, steps.Notifications},
	} {
		if st.age <= 0 || st.run == nil {
			continue
		}
		if err := st.run(ctx, tenant, st.age, p, &total, progress); err != nil {
			return total, err
		}
	}
	if p.DryRun && progress != nil {
		progress(total)
	}
	return total, nil
}

// PurgePages runs a step's pages until one reports the step done: each page returns what it
// removed (or counted), how many of the step's own rows went, and whether it was the last. Each
// page's counts are added to total, and progress, when set, follows every page that removed
// something (not in a dry run). A cancelled ctx stops between pages with ctx's error; a page
// that fails adds nothing.
func PurgePages(ctx context.Context, p models.RetentionPolicy, total *models.PurgeCounts, progress func(models.PurgeCounts),
	page func() (counts models.PurgeCounts, n int, done bool, err error)) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		counts, n, done, err := page()
		if err != nil {
			return err
		}
		total.Add(counts)
		if progress != nil && n > 0 && !p.DryRun {
			progress(*total)
		}
		if done {
			return nil
		}
	}
}

package stress

import (
	"context"
	"errors"

	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/workflow"
)

// StoreTarget drives the store in this process, SQL or document store, through the same
// service and projector the server's handlers call, without HTTP.
type StoreTarget struct {
	store     store.Store
	svc       *tasks.Service
	projector *workflow.Projector
	loopback  *workflow.Loopback
}

// NewStoreTarget builds the target on store.
func NewStoreTarget(s store.Store) *StoreTarget {
	return &StoreTarget{store: s, svc: tasks.New(s, tasks.Options{}), projector: workflow.NewProjector(s, nil),
		loopback: workflow.NewLoopback(s)}
}

// Name is "store".
func (*StoreTarget) Name() string { return "store" }

// Project runs the runtime protocol's projection.
func (s *StoreTarget) Project(ctx context.Context, tenant string, req workflow.ProjectionRequest) (Item, Outcome, error) {
	t, created, err := s.projector.Project(ctx, tenant, req)
	if err != nil {
		return Item{}, Failed, err
	}
	o := Repeated
	if created {
		o = Applied
	}
	return itemOf(t), o, nil
}

// Claim runs the claim command.
func (s *StoreTarget) Claim(ctx context.Context, a models.Actor, id string, revision int, operationID string) (Item, Outcome, error) {
	return resultOf(s.svc.Claim(ctx, a, id, tasks.Common{ExpectedRevision: revision, OperationID: operationID}))
}

// Complete runs the complete command with the default action and no data.
func (s *StoreTarget) Complete(ctx context.Context, a models.Actor, id string, revision int, operationID string) (Item, Outcome, error) {
	in := tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: revision, OperationID: operationID}, ActionKey: models.ActionComplete}
	return resultOf(s.svc.Complete(ctx, a, id, in))
}

func resultOf(res tasks.Result, err error) (Item, Outcome, error) {
	switch {
	case errors.Is(err, models.ErrConflict):
		return Item{}, Conflict, err
	case err != nil:
		return Item{}, Failed, err
	}
	return Item{ID: res.Task.Task.ID, Revision: res.Revision, Status: res.Task.Task.Status}, Applied, nil
}

// List reads one page through the service.
func (s *StoreTarget) List(ctx context.Context, a models.Actor, q ListQuery) (Page, error) {
	p, err := s.svc.List(ctx, a, models.TaskFilter{Scope: q.Scope, Search: q.Search, Tag: q.Tag, PriorityFrom: q.PriorityFrom,
		Sort: q.Sort, Descending: q.Descending, Cursor: q.Cursor, Limit: q.Limit})
	if err != nil {
		return Page{}, err
	}
	out := Page{Next: p.NextCursor}
	for _, v := range p.Items {
		out.Items = append(out.Items, itemOf(v.Task))
	}
	return out, nil
}

// Finalize acts as the loopback runtime for the given tasks only: each one waiting on the
// workflow gets its stimulus and is finalized (its outbox row settled). An outbox dispatcher
// in this process would lease the rows of every tenant, real ones included, and finalize them
// without their workflow engine; this never leaves the round's tenant.
func (s *StoreTarget) Finalize(ctx context.Context, tenant string, ids []string) error {
	for _, id := range ids {
		t, err := s.store.Get(ctx, tenant, id)
		if err != nil {
			return err
		}
		if !t.Status.IsTransitional() {
			continue
		}
		op, err := s.store.AcceptedOperation(ctx, tenant, id)
		if errors.Is(err, models.ErrNotFound) {
			continue // finalized meanwhile
		}
		if err != nil {
			return err
		}
		st, err := workflow.NewStimulus(t, *op)
		if err != nil {
			return err
		}
		if err := s.loopback.Deliver(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

func itemOf(t models.Task) Item { return Item{ID: t.ID, Revision: t.Revision, Status: t.Status} }

// StoreInspector reads the facts from the store, SQL or document store: the task, its events
// and its outbox rows.
type StoreInspector struct{ Store store.Store }

// Inspect reads one task's facts.
func (s StoreInspector) Inspect(ctx context.Context, tenant, id string) (Facts, error) {
	t, err := s.Store.Get(ctx, tenant, id)
	if err != nil {
		return Facts{}, err
	}
	f := Facts{Status: t.Status, Events: map[models.EventType]int{}}
	if t.Assignee != nil {
		f.Assignee = t.Assignee.ID
	}
	for after := 0; ; {
		evs, err := s.Store.Events(ctx, tenant, id, after, models.MaxPageSize)
		if err != nil {
			return Facts{}, err
		}
		for _, e := range evs {
			f.Events[e.Type]++
			after = e.Seq
		}
		if len(evs) < models.MaxPageSize {
			break
		}
	}
	rows, err := s.Store.Resumptions(ctx, tenant, id)
	f.Outbox = len(rows)
	return f, err
}

// Transitional asks the manager's "all" list for one task in a transitional status.
func (s StoreInspector) Transitional(ctx context.Context, tenant string) (bool, error) {
	p, err := s.Store.Query(ctx, models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll,
		Actor: models.Actor{Tenant: tenant, Manager: true}, Statuses: models.TransitionalStatuses, Limit: 1})
	return len(p.Items) > 0, err
}

// Count counts the tenant's tasks by paging a manager's "all" list (a total would be capped).
func (s StoreInspector) Count(ctx context.Context, tenant string) (int, error) {
	n, cursor := 0, ""
	for {
		p, err := s.Store.Query(ctx, models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll,
			Actor: models.Actor{Tenant: tenant, Manager: true}, Limit: models.MaxPageSize, Cursor: cursor})
		if err != nil {
			return 0, err
		}
		n += len(p.Items)
		if cursor = p.NextCursor; cursor == "" {
			return n, nil
		}
	}
}

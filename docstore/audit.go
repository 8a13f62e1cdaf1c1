package docstore

import (
	"cmp"
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The audit (SPEC 8, `web audit`) on documents: every store's per-task invariants
// (storekit.Auditor), checked on each aggregate with its documents in the other collections,
// merged with what still waits in the aggregate as every read merges them. There is no snapshot
// to read a page in, so a task is judged on a consistent view of its own: its documents are read
// after the aggregate, and when the aggregate's version moved meanwhile (a write or a relay pass
// ran) the task is read again. It never writes and never repairs. The candidates and tag keys
// are the aggregate's own entries, with no tenant or status copy of their own to check.

// auditWords are what the audit's findings call this store's records.
var auditWords = storekit.AuditWords{Row: "document", Column: "field", Candidates: "candidates", Tags: "tag keys", Resumption: "resumption"}

// auditRows are one task's documents outside the aggregate, merged with its pending entries.
type auditRows struct {
	events      []eventDoc
	operations  []operationDoc
	resumptions []resumptionDoc
	invitations []invitationDoc
	deliveries  []deliveryDoc
	sessions    []storekit.GuestSessionRow
	comments    []commentDoc
}

// Audit reads up to size aggregates after the filter's resume key, ordered by (tenant, id),
// with their documents, and checks every per-task invariant. It never writes.
func (s *Store) Audit(ctx context.Context, f store.AuditFilter, size int) (store.AuditPage, error) {
	size = storekit.AuditPageSize(size)
	now, err := s.Now(ctx)
	if err != nil {
		return store.AuditPage{}, err
	}
	docs, err := s.auditTasks(ctx, f, size)
	if err != nil {
		return store.AuditPage{}, err
	}
	tasks := make([]*storekit.TaskRow, len(docs))
	for i := range docs {
		tasks[i] = &docs[i].TaskRow
	}
	a := storekit.Auditor{Codec: s.codec(), Words: auditWords, Now: now}
	return a.Page(tasks, size, func(i int) (*storekit.AuditTask, error) { return s.auditView(ctx, &docs[i]) })
}

// auditTasks reads the page's aggregates in (tenant, id) order; an aggregate a purge has marked
// is gone already.
func (s *Store) auditTasks(ctx context.Context, f store.AuditFilter, size int) ([]taskDoc, error) {
	filter := bson.D{{Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}}}
	if f.Tenant != "" {
		filter = append(filter, bson.E{Key: "tenant_id", Value: f.Tenant})
	}
	if f.AfterID != "" {
		filter = append(filter, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "tenant_id", Value: bson.D{{Key: "$gt", Value: f.AfterTenant}}}},
			bson.D{{Key: "tenant_id", Value: f.AfterTenant}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: f.AfterID}}}},
		}})
	}
	opts := options.Find().SetSort(bson.D{{Key: "tenant_id", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(size))
	var out []taskDoc
	err := s.findAll(ctx, Aggregate, filter, opts, &out)
	return out, err
}

// auditView reads the task's documents and returns them with the aggregate they belong to:
// the one read, or, when its version moved while they were read, the aggregate read again (a
// few times at most, then the last view is judged). nil when the task is gone.
func (s *Store) auditView(ctx context.Context, d *taskDoc) (*storekit.AuditTask, error) {
	for attempt := 0; ; attempt++ {
		rows, err := s.auditRows(ctx, d)
		if err != nil {
			return nil, err
		}
		var again []taskDoc
		f := bson.D{{Key: "_id", Value: d.ID}, {Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}}}
		if err := s.findAll(ctx, Aggregate, f, nil, &again); err != nil {
			return nil, err
		}
		if len(again) == 0 {
			return nil, nil
		}
		if again[0].Version == d.Version || attempt == 3 {
			return auditTask(d, rows), nil
		}
		d = &again[0]
	}
}

// auditTask is the aggregate d with its documents r as the audit judges them.
func auditTask(d *taskDoc, r *auditRows) *storekit.AuditTask {
	t := &storekit.AuditTask{
		Task:        &d.TaskRow,
		Events:      rowsOf(r.events, func(e *eventDoc) storekit.EventRow { return e.EventRow }),
		Operations:  rowsOf(r.operations, func(o *operationDoc) storekit.OperationRow { return o.OperationRow }),
		Resumptions: rowsOf(r.resumptions, func(x *resumptionDoc) storekit.ResumptionRow { return x.ResumptionRow }),
		Invitations: rowsOf(r.invitations, func(x *invitationDoc) storekit.InvitationRow { return x.InvitationRow }),
		Deliveries:  rowsOf(r.deliveries, func(x *deliveryDoc) storekit.DeliveryRow { return x.DeliveryRow }),
		Sessions:    r.sessions,
		Tags:        rowsOf(d.TagKeys, func(tg *tagDoc) storekit.AuditTag { return storekit.AuditTag{Tag: tg.Tag} }),
		Candidates: rowsOf(d.Candidates, func(c *candidateDoc) storekit.AuditCandidate {
			return storekit.AuditCandidate{ID: c.ID, Source: c.Source}
		}),
	}
	// In the order a rotation walks them: the aggregate's fields, then the operations',
	// invitations', deliveries' and comments' (storekit.SealedTables).
	for _, col := range storekit.ProtectedColumns {
		t.Sealed = append(t.Sealed, storekit.SealedValue{Table: Aggregate, Row: d.ID, Column: col.Name, Envelope: storekit.Str(*d.SealedColumn(col.Name))})
	}
	for _, o := range r.operations {
		t.Sealed = append(t.Sealed, storekit.SealedValue{Table: operationCollection, Row: o.ID, Column: colPayload, Envelope: storekit.Str(o.PayloadEnc)})
	}
	for _, inv := range r.invitations {
		t.Sealed = append(t.Sealed, storekit.SealedValue{Table: invitationCollection, Row: inv.ID, Column: colRecipient, Envelope: storekit.Str(inv.RecipientEnc)})
	}
	for _, dl := range r.deliveries {
		t.Sealed = append(t.Sealed, storekit.SealedValue{Table: deliveryCollection, Row: dl.ID, Column: colPayload, Envelope: dl.PayloadEnc})
	}
	for _, c := range r.comments {
		t.Sealed = append(t.Sealed, storekit.SealedValue{Table: commentCollection, Row: c.ID, Column: storekit.ColCommentBody,
			Envelope: storekit.Str(c.BodyEnc), SealRow: storekit.CommentSealID(c.TenantID, c.TaskID, c.ID)})
	}
	return t
}

// rowsOf is what row reads of each of docs.
func rowsOf[D, R any](docs []D, row func(*D) R) []R {
	out := make([]R, len(docs))
	for i := range docs {
		out[i] = row(&docs[i])
	}
	return out
}

// auditRows reads the task's documents (by task_id, as every unit's index has it) and merges
// the entries still pending in the aggregate, each once.
func (s *Store) auditRows(ctx context.Context, d *taskDoc) (*auditRows, error) {
	r := &auditRows{}
	of := bson.D{{Key: "task_id", Value: d.ID}}
	for _, load := range []struct {
		coll string
		sort string
		out  any
	}{
		{eventCollection, "seq", &r.events},
		{operationCollection, "_id", &r.operations},
		{resumptionCollection, "_id", &r.resumptions},
		{invitationCollection, "_id", &r.invitations},
		{deliveryCollection, "_id", &r.deliveries},
		{guestSessionCollection, "_id", &r.sessions},
		{commentCollection, "_id", &r.comments},
	} {
		opts := options.Find().SetSort(bson.D{{Key: load.sort, Value: 1}})
		if err := s.findAll(ctx, load.coll, of, opts, load.out); err != nil {
			return nil, err
		}
	}
	r.events = mergeByID(r.events, d.PendingEvents, func(e eventDoc) string { return e.ID })
	slices.SortFunc(r.events, func(a, b eventDoc) int { return cmp.Compare(a.Seq, b.Seq) })
	r.operations = mergeByID(r.operations, d.Operations, func(o operationDoc) string { return o.ID })
	r.resumptions = mergeByID(r.resumptions, d.PendingResumptions, func(x resumptionDoc) string { return x.ID })
	r.invitations = mergeByID(r.invitations, d.PendingInvitations, func(x invitationDoc) string { return x.ID })
	r.deliveries = mergeByID(r.deliveries, d.PendingDeliveries, func(x deliveryDoc) string { return x.ID })
	r.comments = mergeByID(r.comments, d.PendingComments, func(c commentDoc) string { return c.ID })
	for i := range r.comments {
		erasePending(d, &r.comments[i])
	}
	pendingInvitationEffects(d, r)
	pendingSettleEffects(d, r)
	return r, nil
}

// pendingSettleEffects applies the aggregate's settle-resumptions effects the relay has not
// applied yet to the view: a finalization written just before a crash (or just before the
// audit) has settled its task's pending resumptions once the relay runs, as the effect says.
func pendingSettleEffects(d *taskDoc, r *auditRows) {
	for _, e := range d.PendingEffects {
		if e.Kind != effectSettleResumptions {
			continue
		}
		for j := range r.resumptions {
			if res := &r.resumptions[j]; res.State == string(models.DeliveryPending) && !slices.Contains(e.Exclude, res.ID) {
				res.State = string(models.DeliverySettled)
			}
		}
	}
}

// pendingInvitationEffects applies the aggregate's invitation effects the relay has not applied
// yet to the view, as the invitations' reads do (overlay): the status change, the deliveries it
// settles and the sessions it ends.
func pendingInvitationEffects(d *taskDoc, r *auditRows) {
	for i := range r.invitations {
		overlay(d, &r.invitations[i])
	}
	for _, e := range d.PendingEffects {
		inv := e.Invitation
		if e.Kind != effectInvitation || inv == nil {
			continue
		}
		for j := range r.deliveries {
			if dl := &r.deliveries[j]; inv.SettleDeliveries && dl.InvitationID == inv.InvitationID && dl.State == string(models.DeliveryPending) {
				dl.State = string(models.DeliverySettled)
			}
		}
		for j := range r.sessions {
			if gs := &r.sessions[j]; inv.EndSessions && gs.InvitationID == inv.InvitationID && gs.RevokedAt == nil {
				at := inv.At
				gs.RevokedAt = &at
			}
		}
	}
}

// mergeByID adds the pending entries not in the collection already (the relay inserts before
// it pulls, so an entry may be in both places for a moment). An entry in both is taken from
// the aggregate, whose copy is the one still changing.
func mergeByID[T any](stored, pending []T, id func(T) string) []T {
	if len(pending) == 0 {
		return stored
	}
	waiting := map[string]bool{}
	for _, p := range pending {
		waiting[id(p)] = true
	}
	out := make([]T, 0, len(stored)+len(pending))
	for _, x := range stored {
		if !waiting[id(x)] {
			out = append(out, x)
		}
	}
	return append(out, pending...)
}

package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// Key rotation over the sealed fields (repository/rekey.go has it on SQL). The key ring's first
// key seals, every key opens, so a key can be retired once no document holds a value under it.
// A rotation walks each sealed "table" — named as on SQL, so `web rekey` and the contract suite
// name them alike — by _id, page by page, and reseals every value not under the primary key
// with the same associated data (row id "/" field). Each reseal is a compare-and-swap on its
// document, so a concurrent write is never lost: the aggregate's through a claimed write
// (write), a shared document's through its version claim (claimedSet), and a finished
// operation, which nothing else writes again, on the value read.

// sealedUnit is a sealed table (storekit.SealedTables) as the document store walks it: its
// documents are in the collection of the same name. The operations still open in an aggregate
// are sealed there and rotated with it (the user_tasks walk); the operations collection holds
// the finished ones.
type sealedUnit struct {
	storekit.SealedTable
	// claimKey names the claims of a shared document, "" for the aggregate (claimed by write)
	// and for finished operations (never written again).
	claimKey string
}

// sealedClaims are the claim keys of the sealed tables whose documents are shared.
var sealedClaims = map[string]string{invitationCollection: "invitation:", deliveryCollection: "delivery:", webSessionCollection: "web-session:"}

func sealedUnitOf(table string) (sealedUnit, bool) {
	t, ok := storekit.SealedTableNamed(table)
	return sealedUnit{t, sealedClaims[table]}, ok
}

// sealedDoc is one document of a sealed unit as a walk reads it.
type sealedDoc struct {
	ID       string         `bson:"_id"`
	TenantID string         `bson:"tenant_id"`
	Version  int64          `bson:"version"`
	Sealed   map[string]any `bson:",inline"`
	// Operations are the aggregate's open operations, PendingInvitations and PendingDeliveries
	// what an issue queued for the relay (user_tasks only): their values are sealed there.
	Operations         []operationDoc  `bson:"operations"`
	PendingInvitations []invitationDoc `bson:"pending_invitations"`
	PendingDeliveries  []deliveryDoc   `bson:"pending_deliveries"`
	PendingComments    []commentDoc    `bson:"pending_comments"`
}

// sealRow is the row part of the associated data of d's values in u (SealedTable.Scope: the
// tenant and the other scope fields read with it).
func (d *sealedDoc) sealRow(u sealedUnit) string {
	scope := make([]string, len(u.Scope))
	for i, f := range u.Scope {
		if f == "tenant_id" {
			scope[i] = d.TenantID
			continue
		}
		scope[i], _ = d.Sealed[f].(string)
	}
	return u.SealRow(scope, d.ID)
}

// value is the envelope of field, "" when the field is null, missing or not a string.
func (d *sealedDoc) value(field string) string {
	v, _ := d.Sealed[field].(string)
	return v
}

// readSealedPage reads up to limit documents of u after the _id after.
func (s *Store) readSealedPage(ctx context.Context, u sealedUnit, after string, limit int) ([]sealedDoc, error) {
	proj := bson.D{{Key: "_id", Value: 1}, {Key: "tenant_id", Value: 1}, {Key: "version", Value: 1}}
	for _, f := range u.Scope {
		if f != "tenant_id" {
			proj = append(proj, bson.E{Key: f, Value: 1})
		}
	}
	for _, f := range u.Columns {
		proj = append(proj, bson.E{Key: f, Value: 1})
	}
	f := bson.D{}
	if u.Name == Aggregate {
		proj = append(proj, bson.E{Key: "operations", Value: 1}, bson.E{Key: "pending_invitations", Value: 1},
			bson.E{Key: "pending_deliveries", Value: 1}, bson.E{Key: "pending_comments", Value: 1})
		f = append(f, bson.E{Key: "purging", Value: bson.D{{Key: "$exists", Value: false}}})
	}
	if after != "" {
		f = append(f, bson.E{Key: "_id", Value: bson.D{{Key: "$gt", Value: after}}})
	}
	opts := options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(limit)).SetProjection(proj)
	var docs []sealedDoc
	err := s.findAll(ctx, u.Name, f, opts, &docs)
	return docs, err
}

// RekeyPage reads up to limit documents of table after the _id after and, unless dryRun,
// reseals every value not under the primary key. A value is replaced only if it is still the
// one read, so a concurrent writer's newer value wins (it sealed under the primary anyway).
// Unreadable values are reported, never rewritten.
func (s *Store) RekeyPage(ctx context.Context, table string, after string, limit int, dryRun bool) (store.KeyPage, error) {
	if isAttachmentTable(table) {
		return s.rekeyAttachments(ctx, table, after, limit, dryRun)
	}
	u, ok := sealedUnitOf(table)
	if !ok {
		return store.KeyPage{}, fmt.Errorf("docstore: %q holds no sealed fields", table)
	}
	return s.walkSealed(ctx, u, after, limit, !dryRun)
}

// AuditSealed checks one page of a sealed unit outside the task aggregates (the web sessions),
// read-only: Resealed stays 0, Unreadable lists the documents with a value no key opens.
func (s *Store) AuditSealed(ctx context.Context, table, after string, limit int) (store.KeyPage, error) {
	if isAttachmentTable(table) {
		return s.auditAttachments(ctx, table, after, limit)
	}
	u, ok := sealedUnitOf(table)
	if !ok || u.TaskScoped {
		return store.KeyPage{}, fmt.Errorf("docstore: %q is not a sealed table outside the tasks", table)
	}
	p, err := s.walkSealed(ctx, u, after, limit, false)
	p.Resealed = 0
	return p, err
}

// walkSealed reads one page of u, counts its values by key, and with reseal set rewrites the
// stale ones. Without it Resealed counts what a rotation would rewrite.
func (s *Store) walkSealed(ctx context.Context, u sealedUnit, after string, limit int, reseal bool) (store.KeyPage, error) {
	if limit <= 0 {
		limit = 500
	}
	page := store.KeyPage{ByKey: map[string]int{}}
	docs, err := s.readSealedPage(ctx, u, after, limit)
	if err != nil {
		return page, err
	}
	for i := range docs {
		d := &docs[i]
		page.Rows++
		page.Next = d.ID
		stale := 0
		noteRow := func(row, sealRow, field, env string) error {
			isStale, _, err := s.sealer().TallyRow(&page, row, sealRow, field, env)
			if isStale {
				stale++
			}
			return err
		}
		note := func(row, field, env string) error { return noteRow(row, row, field, env) }
		for _, f := range u.Columns {
			if err := noteRow(d.ID, d.sealRow(u), f, d.value(f)); err != nil {
				return page, err
			}
		}
		for _, c := range d.PendingComments {
			if err := noteRow(c.ID, storekit.CommentSealID(c.TenantID, c.TaskID, c.ID), storekit.ColCommentBody, storekit.Str(c.BodyEnc)); err != nil {
				return page, err
			}
		}
		for _, o := range d.Operations {
			if err := note(o.ID, colPayload, storekit.Str(o.PayloadEnc)); err != nil {
				return page, err
			}
		}
		for _, inv := range d.PendingInvitations {
			if err := note(inv.ID, colRecipient, storekit.Str(inv.RecipientEnc)); err != nil {
				return page, err
			}
		}
		for _, dl := range d.PendingDeliveries {
			if err := note(dl.ID, colPayload, dl.PayloadEnc); err != nil {
				return page, err
			}
		}
		if stale == 0 {
			continue
		}
		if !reseal {
			page.Resealed += stale
			continue
		}
		n, err := s.resealDoc(ctx, u, d)
		if err != nil {
			return page, err
		}
		page.Resealed += n
	}
	if page.Rows < limit {
		page.Next = ""
	}
	return page, nil
}

// resealDoc rewrites the stale values of one document under the primary key and reports how
// many it rewrote.
func (s *Store) resealDoc(ctx context.Context, u sealedUnit, seen *sealedDoc) (int, error) {
	switch {
	case u.Name == Aggregate:
		return s.resealTask(ctx, seen)
	case u.claimKey == "":
		return s.resealFinal(ctx, u, seen)
	}
	return s.resealShared(ctx, u, seen)
}

// reseal returns env sealed again under the primary key when it is stale, or nil.
func (s *Store) reseal(row, field, env string) (*string, error) {
	st, plain, err := s.sealer().Check(row, field, env, map[string]int{})
	if err != nil || st != storekit.SealedStale {
		return nil, err
	}
	sealed, err := s.keys.Seal(plain, storekit.AAD(row, field))
	return &sealed, err
}

// resealTask reseals the aggregate's stale values (its fields, its open operations' payloads
// and what an issue queued) with one claimed write on the aggregate as it is now.
func (s *Store) resealTask(ctx context.Context, seen *sealedDoc) (int, error) {
	n := 0
	err := s.write(ctx, seen.TenantID, seen.ID, func(_ time.Time, cur *taskDoc) (*taskDoc, error) {
		n = 0
		next := cur.clone()
		// renew hands env, sealed again, to set when it is stale, and counts it.
		renew := func(row, field, env string, set func(sealed string)) error {
			sealed, err := s.reseal(row, field, env)
			if err != nil || sealed == nil {
				return err
			}
			set(*sealed)
			n++
			return nil
		}
		for _, col := range storekit.ProtectedColumns {
			to := next.SealedColumn(col.Name)
			if err := renew(cur.ID, col.Name, storekit.Str(*cur.SealedColumn(col.Name)), func(v string) { *to = &v }); err != nil {
				return nil, err
			}
		}
		for i, o := range next.Operations {
			if err := renew(o.ID, colPayload, storekit.Str(o.PayloadEnc), func(v string) { next.Operations[i].PayloadEnc = &v }); err != nil {
				return nil, err
			}
		}
		for i, inv := range next.PendingInvitations {
			if err := renew(inv.ID, colRecipient, storekit.Str(inv.RecipientEnc), func(v string) { next.PendingInvitations[i].RecipientEnc = &v }); err != nil {
				return nil, err
			}
		}
		for i, dl := range next.PendingDeliveries {
			if err := renew(dl.ID, colPayload, dl.PayloadEnc, func(v string) { next.PendingDeliveries[i].PayloadEnc = v }); err != nil {
				return nil, err
			}
		}
		for i, c := range next.PendingComments {
			if err := renew(storekit.CommentSealID(c.TenantID, c.TaskID, c.ID), storekit.ColCommentBody, storekit.Str(c.BodyEnc),
				func(v string) { next.PendingComments[i].BodyEnc = &v }); err != nil {
				return nil, err
			}
		}
		if n == 0 {
			return nil, nil
		}
		return next, nil
	})
	if errors.Is(err, models.ErrNotFound) {
		return 0, nil // purged meanwhile
	}
	return n, err
}

// resealFinal reseals a document nothing else writes any more (a finished operation) or that
// is only ever cleared (a comment, erased by its deletion) with a filter on each value read.
func (s *Store) resealFinal(ctx context.Context, u sealedUnit, d *sealedDoc) (int, error) {
	n := 0
	for _, f := range u.Columns {
		env := d.value(f)
		sealed, err := s.reseal(d.sealRow(u), f, env)
		if err != nil {
			return n, err
		}
		if sealed == nil {
			continue
		}
		res, err := s.db.Collection(u.Name).UpdateOne(ctx, bson.D{{Key: "_id", Value: d.ID}, {Key: f, Value: env}},
			bson.D{{Key: "$set", Value: bson.D{{Key: f, Value: *sealed}}}})
		if err != nil {
			return n, translate(err)
		}
		n += int(res.ModifiedCount)
	}
	return n, nil
}

// resealShared reseals a document other writers change (an invitation, a delivery, a web
// session) with a claimed write of its version, reading it again after a lost claim.
func (s *Store) resealShared(ctx context.Context, u sealedUnit, seen *sealedDoc) (int, error) {
	n := 0
	err := retryClaimed(ctx, func() error {
		n = 0
		var cur sealedDoc
		err := s.db.Collection(u.Name).FindOne(ctx, bson.D{{Key: "_id", Value: seen.ID}}).Decode(&cur)
		if err != nil {
			return translate(err)
		}
		var set bson.D
		for _, f := range u.Columns {
			sealed, err := s.reseal(cur.ID, f, cur.value(f))
			if err != nil {
				return err
			}
			if sealed != nil {
				set = append(set, bson.E{Key: f, Value: *sealed})
			}
		}
		if len(set) == 0 {
			return nil
		}
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		ref := docRef{coll: u.Name, id: cur.ID, tenant: cur.TenantID, key: u.claimKey + cur.ID}
		if err := s.claimedSet(ctx, ref, cur.Version, set, now); err != nil {
			return err
		}
		n = len(set)
		return nil
	})
	if errors.Is(err, models.ErrNotFound) {
		return 0, nil // gone meanwhile (ended, purged)
	}
	return n, err
}

package docstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Comments (SPEC 10.1; docs/document-store.md, "Comments") as documents of
// user_task_comments, one per comment, `_id` its id. A comment is added by one claimed write of
// its task's aggregate that counts it (comment_count, so the limit holds under concurrent
// writers), queues it in pending_comments with its event and notifications, and raises the
// event sequence, never the revision; the relay moves it to its collection. Reads merge what is
// still pending. A deletion is a claimed write too: it erases a pending comment in place, or
// queues an erase-comment effect the relay applies to the stored one (only ever clearing it).

// commentCollection holds the comments once the relay moved them.
const commentCollection = storekit.CommentTable

// effectEraseComment erases a stored comment's body (effectDoc.Comment names it, CreatedAt is
// its deletion time).
const effectEraseComment = "erase-comment"

// commentDoc is a comment as stored, in its collection or pending in the aggregate.
type commentDoc struct {
	storekit.CommentRow `bson:",inline"`
}

// AddComment queues the comment add decides, its event and notifications with one claimed
// write of the aggregate; commentID stored already on the task returns that comment.
func (s *Store) AddComment(ctx context.Context, tenant, taskID, commentID string, add models.CommentAddFunc) (models.Comment, error) {
	var out models.Comment
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		prior, found, err := s.findComment(ctx, cur, commentID, true)
		if err != nil {
			return nil, err
		}
		if found {
			out = prior
			return nil, nil
		}
		// The relay counts a comment id stored already as moved: one of another task must be
		// refused here, or the comment would vanish.
		n, err := s.db.Collection(commentCollection).CountDocuments(ctx, bson.D{{Key: "_id", Value: commentID}})
		if err != nil {
			return nil, translate(err)
		}
		if n > 0 {
			return nil, fmt.Errorf("docstore: comment id %q is taken", commentID)
		}
		t, err := s.fromDoc(cur, 0)
		if err != nil {
			return nil, err
		}
		c, ev, err := add(now, t, cur.CommentCount)
		if err != nil {
			return nil, err
		}
		if c.ID != commentID || c.Tenant != t.Tenant || c.TaskID != t.ID || ev.Type != models.EventCommentAdded || ev.Seq != t.LastEventSeq+1 ||
			ev.TaskID != t.ID || ev.Tenant != t.Tenant || ev.Revision != t.Revision {
			return nil, fmt.Errorf("docstore: a comment's event must follow the task's sequence at its revision")
		}
		c.CreatedAt = utc(now)
		row, err := s.codec().CommentRow(&c)
		if err != nil {
			return nil, err
		}
		next := cur.clone()
		next.CommentCount++
		next.LastEventSeq = ev.Seq
		next.PendingComments = append(next.PendingComments, commentDoc{row})
		if err := s.queue(next, &models.Change{Event: &ev}); err != nil {
			return nil, err
		}
		ns := storekit.CommentNotifications(&t, &c, ev.Seq, now)
		for i := range ns {
			next.PendingNotifications = append(next.PendingNotifications, notificationDoc{NotificationRow: docCodec.NotificationRow(&ns[i], now)})
		}
		next.RelayDue = true
		out = c
		return next, nil
	})
	if err != nil {
		return models.Comment{}, err
	}
	return out, nil
}

// Comments pages a task's comments oldest first: the aggregate is read first, then the
// collection, so a comment the relay moves in between is in one or both (and shown once).
func (s *Store) Comments(ctx context.Context, q models.CommentQuery) (models.CommentPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = models.DefaultPageSize
	}
	limit = min(limit, models.MaxPageSize)
	agg, err := s.pending(ctx, q.Tenant, q.TaskID)
	if err != nil {
		return models.CommentPage{}, err
	}
	if agg.ID == "" {
		return models.CommentPage{}, nil // no such task in the tenant (or being purged)
	}
	f := bson.D{{Key: "tenant_id", Value: q.Tenant}, {Key: "task_id", Value: q.TaskID}}
	if a := q.After; a != nil {
		at := utc(a.CreatedAt)
		f = append(f, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "created_at", Value: bson.D{{Key: "$gt", Value: at}}}},
			bson.D{{Key: "created_at", Value: at}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: a.ID}}}},
		}})
	}
	opts := options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit + 1))
	var stored []commentDoc
	if err := s.findAll(ctx, commentCollection, f, opts, &stored); err != nil {
		return models.CommentPage{}, err
	}
	var pending []commentDoc
	for _, p := range agg.PendingComments {
		if p.TenantID == q.Tenant && p.TaskID == q.TaskID && (q.After == nil || afterCursor(p.CreatedAt, p.ID, q.After)) {
			pending = append(pending, p)
		}
	}
	docs := mergeByID(stored, pending, func(c commentDoc) string { return c.ID })
	slices.SortFunc(docs, func(a, b commentDoc) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	var page models.CommentPage
	if len(docs) > limit {
		docs = docs[:limit]
		last := docs[limit-1]
		page.Next = &models.CommentCursor{CreatedAt: utc(last.CreatedAt), ID: last.ID}
	}
	page.Items = make([]models.Comment, len(docs))
	for i := range docs {
		erasePending(agg, &docs[i])
		c, err := s.codec().Comment(&docs[i].CommentRow)
		if err != nil {
			return models.CommentPage{}, err
		}
		page.Items[i] = c
	}
	return page, nil
}

// afterCursor reports whether (at, id) comes after the cursor in the list's order.
func afterCursor(at time.Time, id string, c *models.CommentCursor) bool {
	at, ct := utc(at), utc(c.CreatedAt)
	return at.After(ct) || (at.Equal(ct) && id > c.ID)
}

// erasePending applies an erase-comment effect of d the relay has not applied yet to c.
func erasePending(d *taskDoc, c *commentDoc) {
	for _, e := range d.PendingEffects {
		if e.Kind == effectEraseComment && e.Comment == c.ID && c.DeletedAt == nil {
			at := e.CreatedAt
			c.BodyEnc, c.DeletedAt = nil, &at
		}
	}
}

// DeleteComment erases a comment once decide agreed, with its event, in one claimed write.
func (s *Store) DeleteComment(ctx context.Context, tenant, taskID, commentID string, decide models.CommentDeleteFunc) (models.Comment, error) {
	var out models.Comment
	err := s.write(ctx, tenant, taskID, func(now time.Time, cur *taskDoc) (*taskDoc, error) {
		// The decision needs no text: a body that does not open can still be erased.
		c, found, err := s.findComment(ctx, cur, commentID, false)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("docstore: comment: %w", models.ErrNotFound)
		}
		t, err := s.fromDoc(cur, 0)
		if err != nil {
			return nil, err
		}
		ev, err := decide(now, t, c)
		if err != nil {
			return nil, err
		}
		if c.Deleted() {
			out = c
			return nil, nil
		}
		if ev.Type != models.EventCommentDeleted || ev.Seq != t.LastEventSeq+1 || ev.TaskID != t.ID || ev.Tenant != t.Tenant || ev.Revision != t.Revision {
			return nil, fmt.Errorf("docstore: a comment's event must follow the task's sequence at its revision")
		}
		at := utc(now)
		next := cur.clone()
		next.LastEventSeq = ev.Seq
		i := slices.IndexFunc(next.PendingComments, func(p commentDoc) bool { return p.ID == commentID })
		if i >= 0 {
			next.PendingComments[i].BodyEnc, next.PendingComments[i].DeletedAt = nil, &at
		} else {
			next.PendingEffects = append(next.PendingEffects, effectDoc{ID: models.NewID(), Kind: effectEraseComment, Comment: commentID, CreatedAt: at})
		}
		if err := s.queue(next, &models.Change{Event: &ev}); err != nil {
			return nil, err
		}
		next.RelayDue = true
		c.Text, c.Mentions, c.DeletedAt = "", nil, &at
		out = c
		return next, nil
	})
	if err != nil {
		return models.Comment{}, err
	}
	return out, nil
}

// findComment reads comment id of the aggregate d, pending or stored, as the list shows it;
// without open, its body is left closed (CommentMeta).
func (s *Store) findComment(ctx context.Context, d *taskDoc, id string, open bool) (models.Comment, bool, error) {
	var doc commentDoc
	if i := slices.IndexFunc(d.PendingComments, func(p commentDoc) bool { return p.ID == id }); i >= 0 {
		doc = d.PendingComments[i]
	} else {
		err := s.db.Collection(commentCollection).FindOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: d.TenantID},
			{Key: "task_id", Value: d.ID}}).Decode(&doc)
		if err = translate(err); errors.Is(err, models.ErrNotFound) {
			return models.Comment{}, false, nil
		} else if err != nil {
			return models.Comment{}, false, err
		}
	}
	erasePending(d, &doc)
	if !open {
		return docCodec.CommentMeta(&doc.CommentRow), true, nil
	}
	c, err := s.codec().Comment(&doc.CommentRow)
	return c, err == nil, err
}

// relayComments inserts d's pending comments into their collection (a duplicate id is the same
// comment, moved by an earlier pass: AddComment refuses an id stored for another task).
func (s *Store) relayComments(ctx context.Context, d *taskDoc) error {
	for _, c := range d.PendingComments {
		if err := s.insertOnce(ctx, commentCollection, c); err != nil {
			return err
		}
	}
	return nil
}

// eraseComment applies an erase-comment effect of d: it clears the body of a comment not
// erased yet, so a second application changes nothing.
func (s *Store) eraseComment(ctx context.Context, d *taskDoc, e effectDoc) error {
	_, err := s.db.Collection(commentCollection).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: e.Comment}, {Key: "tenant_id", Value: d.TenantID}, {Key: "task_id", Value: d.ID}, {Key: "deleted_at", Value: nil}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "body_enc", Value: nil}, {Key: "deleted_at", Value: e.CreatedAt}}}})
	return translate(err)
}

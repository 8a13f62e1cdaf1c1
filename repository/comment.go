package repository

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// Comments (SPEC 10.1): a row per comment in user_task_comments, the body sealed
// (storekit.Codec.CommentRow). A write takes the task's next event sequence first, which locks
// the task row on every dialect (reserveEventSeq): concurrent comments on one task queue, so the
// count the limit is decided on is the count the comment is added to. The revision is not
// touched.

type commentRecord struct {
	storekit.CommentRow `gorm:"embedded"`
}

func (commentRecord) TableName() string { return storekit.CommentTable }

// commentTask takes the task's next event sequence (locking its row) and reads it with its
// candidates and exclusions (the mentions resolve against them, the notifications skip the
// excluded), without opening its protected content.
func (s *Store) commentTask(tx *gorm.DB, tenant, taskID string) (models.Task, error) {
	t, err := s.reserveEventSeq(tx, tenant, taskID)
	if err != nil {
		return t, err
	}
	return t, loadAssignment(tx, &t)
}

// errCommentReplay rolls back a write that found its comment stored already (a replay, or a
// deletion of a deleted comment): nothing of it may stay, the event sequence included.
var errCommentReplay = errors.New("repository: comment replayed")

// AddComment stores the comment add decides, its event and its notifications in one
// transaction; commentID stored already on the task returns that comment (a replay).
func (s *Store) AddComment(ctx context.Context, tenant, taskID, commentID string, add models.CommentAddFunc) (models.Comment, error) {
	var out models.Comment
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		t, err := s.commentTask(tx, tenant, taskID)
		if err != nil {
			return err
		}
		if prior, err := s.loadComment(tx, tenant, taskID, commentID); err == nil {
			out = prior
			return errCommentReplay
		} else if !errors.Is(err, models.ErrNotFound) {
			return err
		}
		var n int64
		if err := tx.Model(&commentRecord{}).Where("tenant_id = ? AND task_id = ?", tenant, taskID).Count(&n).Error; err != nil {
			return translate(err)
		}
		c, ev, err := add(now, t, int(n))
		if err != nil {
			return err
		}
		if c.ID != commentID || c.Tenant != t.Tenant || c.TaskID != t.ID || ev.Type != models.EventCommentAdded || ev.Seq != t.LastEventSeq+1 || ev.TaskID != t.ID || ev.Tenant != t.Tenant || ev.Revision != t.Revision {
			return fmt.Errorf("repository: a comment's event must follow the task's sequence at its revision")
		}
		c.CreatedAt = sqlCodec.Time(now)
		rec, err := s.codec().CommentRow(&c)
		if err != nil {
			return err
		}
		if err := tx.Create(&commentRecord{rec}).Error; err != nil {
			return translate(err)
		}
		if err := s.writeRows(tx, &models.Change{Event: &ev}); err != nil {
			return err
		}
		if _, err := s.insertNotifications(tx, storekit.CommentNotifications(&t, &c, ev.Seq, now), now, false); err != nil {
			return err
		}
		out = c
		return nil
	})
	if errors.Is(err, errCommentReplay) {
		return out, nil
	}
	if err != nil {
		return models.Comment{}, err
	}
	return out, nil
}

// Comments pages a task's comments oldest first, in ix_comments_list's order, the keyset
// cursor after (created_at, id).
func (s *Store) Comments(ctx context.Context, q models.CommentQuery) (models.CommentPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = models.DefaultPageSize
	}
	limit = min(limit, models.MaxPageSize)
	var page models.CommentPage
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		page = models.CommentPage{}
		list := tx.Where("tenant_id = ? AND task_id = ?", q.Tenant, q.TaskID)
		if a := q.After; a != nil {
			at := sqlCodec.Time(a.CreatedAt)
			// created_at >= ? bounds the index range; the OR only filters its first entries.
			list = list.Where("created_at >= ? AND (created_at > ? OR id > ?)", at, at, a.ID)
		}
		var recs []commentRecord
		if err := list.Order("created_at, id").Limit(limit + 1).Find(&recs).Error; err != nil {
			return translate(err)
		}
		if len(recs) > limit {
			recs = recs[:limit]
			last := recs[limit-1]
			page.Next = &models.CommentCursor{CreatedAt: sqlCodec.Time(last.CreatedAt), ID: last.ID}
		}
		page.Items = make([]models.Comment, len(recs))
		for i := range recs {
			c, err := s.codec().Comment(&recs[i].CommentRow)
			if err != nil {
				return err
			}
			page.Items[i] = c
		}
		return nil
	})
	if err != nil {
		return models.CommentPage{}, err
	}
	return page, nil
}

// DeleteComment erases a comment's body once decide agreed, and appends its event.
func (s *Store) DeleteComment(ctx context.Context, tenant, taskID, commentID string, decide models.CommentDeleteFunc) (models.Comment, error) {
	var out models.Comment
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		t, err := s.commentTask(tx, tenant, taskID)
		if err != nil {
			return err
		}
		rec, err := s.commentRecord(tx, tenant, taskID, commentID)
		if err != nil {
			return err
		}
		// The decision needs no text: a body that does not open can still be erased.
		c := sqlCodec.CommentMeta(&rec.CommentRow)
		ev, err := decide(now, t, c)
		if err != nil {
			return err
		}
		if c.Deleted() {
			out = c
			return errCommentReplay
		}
		if ev.Type != models.EventCommentDeleted || ev.Seq != t.LastEventSeq+1 || ev.TaskID != t.ID || ev.Tenant != t.Tenant || ev.Revision != t.Revision {
			return fmt.Errorf("repository: a comment's event must follow the task's sequence at its revision")
		}
		at := sqlCodec.Time(now)
		res := tx.Model(&commentRecord{}).Where("tenant_id = ? AND task_id = ? AND id = ? AND deleted_at IS NULL", tenant, taskID, commentID).
			Updates(map[string]any{"body_enc": nil, "deleted_at": at})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected != 1 {
			return errNoRows
		}
		if err := s.writeRows(tx, &models.Change{Event: &ev}); err != nil {
			return err
		}
		c.Text, c.Mentions, c.DeletedAt = "", nil, &at
		out = c
		return nil
	})
	if errors.Is(err, errCommentReplay) {
		return out, nil
	}
	if err != nil {
		return models.Comment{}, err
	}
	return out, nil
}

// loadComment reads and opens one comment of a task; another task's or tenant's is not found.
func (s *Store) loadComment(tx *gorm.DB, tenant, taskID, id string) (models.Comment, error) {
	rec, err := s.commentRecord(tx, tenant, taskID, id)
	if err != nil {
		return models.Comment{}, err
	}
	return s.codec().Comment(&rec.CommentRow)
}

// commentRecord reads one comment of a task as stored.
func (s *Store) commentRecord(tx *gorm.DB, tenant, taskID, id string) (commentRecord, error) {
	var rec commentRecord
	err := tx.Where("tenant_id = ? AND task_id = ? AND id = ?", tenant, taskID, id).Take(&rec).Error
	return rec, translate(err)
}

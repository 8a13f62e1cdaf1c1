package docstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Attachments (SPEC 10.2, store.Attachments) as documents: user_task_attachments (_id the
// attachment id) and user_task_attachment_chunks (_id storekit.ChunkID). Without transactions:
//   - the 20-per-task limit is a slot (as saved views): a finished attachment holds one of its
//     task's MaxAttachmentsPerTask slots "f<n>", unique per task (ux_attachments_slot); an
//     unfinished one holds its own "u<id>". A finish claims a free slot, then writes the event
//     with a claimed write of the aggregate (which checks the task is open), then marks the
//     attachment finished. A crash between the event and the mark leaves the event and an
//     unfinished attachment, which the sweep removes (docs/collaboration-attachments.md).
//   - a delete writes its event, then turns the attachment back into an unfinished one started
//     at the epoch, then removes its chunks and it; a crash leaves it invisible and the next
//     sweep removes the rest.

type attachmentDoc struct {
	storekit.AttachmentRow `bson:",inline"`
}

func (s *Store) attachments() *mongo.Collection { return s.db.Collection(storekit.AttachmentTable) }
func (s *Store) chunks() *mongo.Collection      { return s.db.Collection(storekit.AttachmentChunkTable) }

func attachmentFilter(tenant, taskID, id string, finished bool) bson.D {
	cond := bson.D{{Key: "$ne", Value: nil}}
	if !finished {
		cond = bson.D{{Key: "$eq", Value: nil}}
	}
	return bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID}, {Key: "created_at", Value: cond}}
}

func unfinishedSlot(id string) string { return "u" + id }

// BeginAttachment stores an unfinished upload under a new id (store.Attachments).
func (s *Store) BeginAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error) {
	d, err := s.load(ctx, taskFilter(att.Tenant, att.TaskID))
	if err != nil {
		return models.Attachment{}, err
	}
	t, err := s.fromDoc(d, 0)
	if err != nil {
		return models.Attachment{}, err
	}
	if err := models.AttachmentUploadable(t); err != nil {
		return models.Attachment{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.Attachment{}, err
	}
	att.ID = models.NewID()
	row, err := s.sealer().AttachmentRowOf(&att, now)
	if err != nil {
		return models.Attachment{}, err
	}
	row.Slot = unfinishedSlot(att.ID)
	if _, err := s.attachments().InsertOne(ctx, attachmentDoc{row}); err != nil {
		return models.Attachment{}, translate(err)
	}
	att.FileName, _ = models.AttachmentFileName(att.FileName)
	return att, nil
}

// PutAttachmentChunk seals and stores one chunk of an unfinished upload (store.Attachments).
func (s *Store) PutAttachmentChunk(ctx context.Context, tenant, taskID, id string, seq int, data []byte) error {
	if err := storekit.CheckChunk(seq, data); err != nil {
		return err
	}
	var d attachmentDoc
	if err := s.attachments().FindOne(ctx, attachmentFilter(tenant, taskID, id, false)).Decode(&d); err != nil {
		return translate(err)
	}
	chunk, err := s.sealer().ChunkRowOf(&d.AttachmentRow, seq, data)
	if err != nil {
		return err
	}
	if _, err := s.chunks().InsertOne(ctx, chunk); mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: chunk %d is stored already", models.ErrConflict, seq)
	} else if err != nil {
		return translate(err)
	}
	return nil
}

// chunkShape is how many chunks of an attachment are stored, the highest index and their
// plain bytes.
func (s *Store) chunkShape(ctx context.Context, id string) (n, maxSeq int, size int64, err error) {
	var rows []storekit.AttachmentChunkRow
	err = s.findAll(ctx, storekit.AttachmentChunkTable, bson.D{{Key: "attachment_id", Value: id}},
		options.Find().SetProjection(bson.D{{Key: "seq", Value: 1}, {Key: "plain_size", Value: 1}}), &rows)
	maxSeq = -1
	for _, r := range rows {
		maxSeq = max(maxSeq, r.Seq)
		size += int64(r.PlainSize)
	}
	return len(rows), maxSeq, size, err
}

// FinishAttachment claims a slot, writes attachment-added and marks the upload finished
// (store.Attachments; the order is in the file's comment).
func (s *Store) FinishAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error) {
	var d attachmentDoc
	if err := s.attachments().FindOne(ctx, attachmentFilter(att.Tenant, att.TaskID, att.ID, false)).Decode(&d); err != nil {
		return models.Attachment{}, translate(err)
	}
	n, maxSeq, size, err := s.chunkShape(ctx, att.ID)
	if err != nil {
		return models.Attachment{}, err
	}
	if err := storekit.CheckFinish(att, n, maxSeq, size); err != nil {
		return models.Attachment{}, err
	}
	out, err := s.codec().Attachment(&d.AttachmentRow)
	if err != nil {
		return models.Attachment{}, err
	}
	out.ContentType, out.Size, out.SHA256, out.Chunks = att.ContentType, att.Size, att.SHA256, att.Chunks
	others, err := s.claimSlot(ctx, att)
	if err != nil {
		return models.Attachment{}, err
	}
	ev, err := s.AppendEvent(ctx, att.Tenant, att.TaskID, func(now time.Time, t models.Task) (models.Event, error) {
		out.CreatedAt = now
		return models.AttachmentAdded(t, out, others, now)
	})
	if err != nil {
		// Give the slot back: the upload stays unfinished (and is swept).
		_, _ = s.attachments().UpdateOne(ctx, attachmentFilter(att.Tenant, att.TaskID, att.ID, false),
			bson.D{{Key: "$set", Value: bson.D{{Key: "slot", Value: unfinishedSlot(att.ID)}}}})
		return models.Attachment{}, err
	}
	out.CreatedAt = ev.OccurredAt
	res, err := s.attachments().UpdateOne(ctx, attachmentFilter(att.Tenant, att.TaskID, att.ID, false), bson.D{{Key: "$set", Value: bson.D{
		{Key: "content_type", Value: att.ContentType}, {Key: "size_bytes", Value: att.Size}, {Key: "sha256", Value: att.SHA256},
		{Key: "chunks", Value: att.Chunks}, {Key: "created_at", Value: ev.OccurredAt},
	}}})
	if err != nil {
		return models.Attachment{}, translate(err)
	}
	if res.MatchedCount != 1 {
		return models.Attachment{}, models.ErrNotFound // swept meanwhile
	}
	return out, nil
}

// claimSlot gives the upload a free finished slot of its task and returns how many other
// finished attachments the task holds; none free is the limit's validation error.
func (s *Store) claimSlot(ctx context.Context, att models.Attachment) (int, error) {
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		var taken []attachmentDoc
		err := s.findAll(ctx, storekit.AttachmentTable, bson.D{{Key: "tenant_id", Value: att.Tenant}, {Key: "task_id", Value: att.TaskID},
			{Key: "slot", Value: bson.D{{Key: "$regex", Value: "^f"}}}, {Key: "_id", Value: bson.D{{Key: "$ne", Value: att.ID}}}},
			options.Find().SetProjection(bson.D{{Key: "slot", Value: 1}}), &taken)
		if err != nil {
			return 0, err
		}
		used := map[string]bool{}
		for _, o := range taken {
			used[o.Slot] = true
		}
		var free []string
		for i := range models.MaxAttachmentsPerTask {
			if slot := "f" + strconv.Itoa(i); !used[slot] {
				free = append(free, slot)
			}
		}
		if len(free) == 0 {
			return 0, models.InvalidField("file", "a task holds at most 20 attachments")
		}
		slot := free[rand.IntN(len(free))]
		res, err := s.attachments().UpdateOne(ctx, attachmentFilter(att.Tenant, att.TaskID, att.ID, false),
			bson.D{{Key: "$set", Value: bson.D{{Key: "slot", Value: slot}}}})
		switch {
		case mongo.IsDuplicateKeyError(err):
			if err := backoff(ctx, attempt); err != nil {
				return 0, err
			}
			continue
		case err != nil:
			return 0, translate(err)
		case res.MatchedCount != 1:
			return 0, models.ErrNotFound
		}
		return len(taken), nil
	}
	return 0, fmt.Errorf("%w: the task's attachment slots kept changing", models.ErrBusy)
}

// Attachments lists a task's finished attachments, oldest first (store.Attachments).
func (s *Store) Attachments(ctx context.Context, tenant, taskID string) ([]models.Attachment, error) {
	var docs []attachmentDoc
	err := s.findAll(ctx, storekit.AttachmentTable, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID},
		{Key: "created_at", Value: bson.D{{Key: "$ne", Value: nil}}}},
		options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(2*models.MaxAttachmentsPerTask), &docs)
	if err != nil {
		return nil, err
	}
	out := make([]models.Attachment, 0, len(docs))
	for i := range docs {
		att, err := s.codec().Attachment(&docs[i].AttachmentRow)
		if err != nil {
			return nil, err
		}
		out = append(out, att)
	}
	return out, nil
}

// Attachment is one finished attachment (store.Attachments).
func (s *Store) Attachment(ctx context.Context, tenant, taskID, id string) (models.Attachment, error) {
	var d attachmentDoc
	if err := s.attachments().FindOne(ctx, attachmentFilter(tenant, taskID, id, true)).Decode(&d); err != nil {
		return models.Attachment{}, translate(err)
	}
	return s.codec().Attachment(&d.AttachmentRow)
}

// ReadAttachment streams a finished attachment chunk by chunk (store.Attachments): one read per
// chunk; a chunk missing because the attachment was deleted meanwhile is models.ErrNotFound.
func (s *Store) ReadAttachment(ctx context.Context, tenant, taskID, id string, each func([]byte) error) (models.Attachment, error) {
	att, err := s.Attachment(ctx, tenant, taskID, id)
	if err != nil {
		return att, err
	}
	err = s.sealer().ReadChunks(att, func(seq int) (*storekit.AttachmentChunkRow, error) {
		var r storekit.AttachmentChunkRow
		err := s.chunks().FindOne(ctx, bson.D{{Key: "_id", Value: storekit.ChunkID(id, seq)}, {Key: "attachment_id", Value: id},
			{Key: "tenant_id", Value: tenant}, {Key: "task_id", Value: taskID}}).Decode(&r)
		if errors.Is(err, mongo.ErrNoDocuments) {
			if _, gone := s.Attachment(ctx, tenant, taskID, id); gone != nil {
				return nil, gone
			}
			return nil, nil
		}
		return &r, translate(err)
	}, each)
	return att, err
}

// DeleteAttachment writes attachment-deleted and removes the attachment (store.Attachments).
func (s *Store) DeleteAttachment(ctx context.Context, a models.Actor, taskID, id string) (models.Attachment, error) {
	att, err := s.Attachment(ctx, a.Tenant, taskID, id)
	if err != nil {
		return models.Attachment{}, err
	}
	if _, err := s.AppendEvent(ctx, a.Tenant, taskID, func(now time.Time, t models.Task) (models.Event, error) {
		return models.AttachmentDeleted(t, a, att, now)
	}); err != nil {
		return models.Attachment{}, err
	}
	// Unfinished and started at the epoch: invisible now, and swept if the rest fails.
	res, err := s.attachments().UpdateOne(ctx, attachmentFilter(a.Tenant, taskID, id, true), bson.D{{Key: "$set", Value: bson.D{
		{Key: "created_at", Value: nil}, {Key: "started_at", Value: time.Unix(0, 0).UTC()}, {Key: "slot", Value: unfinishedSlot(id)}}}})
	if err != nil {
		return models.Attachment{}, translate(err)
	}
	if res.MatchedCount != 1 {
		return models.Attachment{}, models.ErrNotFound // deleted by a concurrent delete
	}
	if _, err := s.removeAttachments(ctx, []string{id}); err != nil {
		return models.Attachment{}, err
	}
	return att, nil
}

// AbandonAttachment removes an unfinished upload with its chunks (store.Attachments). Only its
// own upload's failing request abandons it, so no finish of it runs meanwhile; removeAttachments
// never removes a finished one.
func (s *Store) AbandonAttachment(ctx context.Context, tenant, taskID, id string) error {
	n, err := s.attachments().CountDocuments(ctx, attachmentFilter(tenant, taskID, id, false))
	if err != nil {
		return translate(err)
	}
	if n == 0 {
		return nil // finished, swept, or never this task's
	}
	_, err = s.removeAttachments(ctx, []string{id})
	return err
}

// SweepAttachmentUploads removes unfinished uploads older than olderThan (store.Attachments).
func (s *Store) SweepAttachmentUploads(ctx context.Context, olderThan time.Duration, limit int) (int, error) {
	if limit <= 0 {
		limit = 100
	}
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	var docs []attachmentDoc
	err = s.findAll(ctx, storekit.AttachmentTable, bson.D{{Key: "created_at", Value: nil},
		{Key: "started_at", Value: bson.D{{Key: "$lt", Value: now.Add(-olderThan)}}}},
		options.Find().SetSort(bson.D{{Key: "started_at", Value: 1}}).SetLimit(int64(limit)).SetProjection(bson.D{{Key: "_id", Value: 1}}), &docs)
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	ids := make([]string, len(docs))
	for i := range docs {
		ids[i] = docs[i].ID
	}
	return s.removeAttachments(ctx, ids)
}

// removeAttachments deletes unfinished attachments' chunks, then them, and returns how many
// attachments went (a finished one is never removed here).
func (s *Store) removeAttachments(ctx context.Context, ids []string) (int, error) {
	if _, err := s.chunks().DeleteMany(ctx, bson.D{{Key: "attachment_id", Value: bson.D{{Key: "$in", Value: ids}}}}); err != nil {
		return 0, translate(err)
	}
	res, err := s.attachments().DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}, {Key: "created_at", Value: nil}})
	if err != nil {
		return 0, translate(err)
	}
	return int(res.DeletedCount), nil
}

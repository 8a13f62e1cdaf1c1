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

// Attachments (SPEC 10.2, store.Attachments): an upload writes its sealed chunks under an
// unfinished row in short transactions and finishes in one; reads go chunk by chunk.

type attachmentRecord struct {
	storekit.AttachmentRow `gorm:"embedded"`
}

func (attachmentRecord) TableName() string { return storekit.AttachmentTable }

type attachmentChunkRecord struct {
	storekit.AttachmentChunkRow `gorm:"embedded"`
}

func (attachmentChunkRecord) TableName() string { return storekit.AttachmentChunkTable }

// BeginAttachment stores an unfinished upload under a new id (store.Attachments).
func (s *Store) BeginAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error) {
	att.ID = models.NewID()
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var task taskRecord
		if err := tx.Where("tenant_id = ? AND id = ?", att.Tenant, att.TaskID).Take(&task).Error; err != nil {
			return translate(err)
		}
		t, err := s.fromTaskRecord(&task, false)
		if err != nil {
			return err
		}
		if err := models.AttachmentUploadable(t); err != nil {
			return err
		}
		row, err := s.sealer().AttachmentRowOf(&att, now)
		if err != nil {
			return err
		}
		att.FileName, _ = models.AttachmentFileName(att.FileName)
		return translate(tx.Create(&attachmentRecord{row}).Error)
	})
	if err != nil {
		return models.Attachment{}, err
	}
	return att, nil
}

// PutAttachmentChunk seals and stores one chunk of an unfinished upload (store.Attachments).
func (s *Store) PutAttachmentChunk(ctx context.Context, tenant, taskID, id string, seq int, data []byte) error {
	if err := storekit.CheckChunk(seq, data); err != nil {
		return err
	}
	return s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		var rec attachmentRecord
		if err := unfinished(tx, tenant, taskID, id).Take(&rec).Error; err != nil {
			return translate(err)
		}
		chunk, err := s.sealer().ChunkRowOf(&rec.AttachmentRow, seq, data)
		if err != nil {
			return err
		}
		if err := translate(tx.Create(&attachmentChunkRecord{chunk}).Error); errors.Is(err, errDuplicate) {
			return fmt.Errorf("%w: chunk %d is stored already", models.ErrConflict, seq)
		} else if err != nil {
			return err
		}
		return nil
	})
}

// FinishAttachment records size, hash and chunks and writes attachment-added (store.Attachments).
func (s *Store) FinishAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error) {
	var out models.Attachment
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		// Taking the event sequence first locks the task row: concurrent finishes of one
		// task queue here, so the count below is exact.
		t, err := s.reserveEventSeq(tx, att.Tenant, att.TaskID)
		if err != nil {
			return err
		}
		var rec attachmentRecord
		if err := unfinished(tx, att.Tenant, att.TaskID, att.ID).Take(&rec).Error; err != nil {
			return translate(err)
		}
		var stored []attachmentChunkRecord
		if err := tx.Select("id", "seq", "plain_size").Where("attachment_id = ?", att.ID).Find(&stored).Error; err != nil {
			return translate(err)
		}
		maxSeq, size := -1, int64(0)
		for _, c := range stored {
			maxSeq, size = max(maxSeq, c.Seq), size+int64(c.PlainSize)
		}
		if err := storekit.CheckFinish(att, len(stored), maxSeq, size); err != nil {
			return err
		}
		var finished int64
		if err := tx.Model(&attachmentRecord{}).Where("tenant_id = ? AND task_id = ? AND created_at IS NOT NULL", att.Tenant, att.TaskID).
			Count(&finished).Error; err != nil {
			return translate(err)
		}
		if out, err = s.codec().Attachment(&rec.AttachmentRow); err != nil {
			return err
		}
		out.ContentType, out.Size, out.SHA256, out.Chunks, out.CreatedAt = att.ContentType, att.Size, att.SHA256, att.Chunks, now
		ev, err := models.AttachmentAdded(t, out, int(finished), now)
		if err != nil {
			return err
		}
		res := unfinished(tx.Model(&attachmentRecord{}), att.Tenant, att.TaskID, att.ID).Updates(map[string]any{
			"content_type": att.ContentType, "size_bytes": att.Size, "sha256": att.SHA256, "chunks": att.Chunks, "created_at": now,
		})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected != 1 {
			return errNoRows
		}
		return s.writeRows(tx, &models.Change{Event: &ev})
	})
	if err != nil {
		return models.Attachment{}, err
	}
	return out, nil
}

// Attachments lists a task's finished attachments, oldest first (store.Attachments).
func (s *Store) Attachments(ctx context.Context, tenant, taskID string) ([]models.Attachment, error) {
	var recs []attachmentRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		return translate(finished(tx, tenant, taskID).Order("created_at, id").Limit(models.MaxAttachmentsPerTask * 2).Find(&recs).Error)
	})
	if err != nil {
		return nil, err
	}
	out := make([]models.Attachment, 0, len(recs))
	for i := range recs {
		att, err := s.codec().Attachment(&recs[i].AttachmentRow)
		if err != nil {
			return nil, err
		}
		out = append(out, att)
	}
	return out, nil
}

// Attachment is one finished attachment (store.Attachments).
func (s *Store) Attachment(ctx context.Context, tenant, taskID, id string) (models.Attachment, error) {
	var att models.Attachment
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		att, err = s.finishedAttachment(tx, tenant, taskID, id)
		return err
	})
	return att, err
}

func (s *Store) finishedAttachment(tx *gorm.DB, tenant, taskID, id string) (models.Attachment, error) {
	var rec attachmentRecord
	if err := finished(tx, tenant, taskID).Where("id = ?", id).Take(&rec).Error; err != nil {
		return models.Attachment{}, translate(err)
	}
	return s.codec().Attachment(&rec.AttachmentRow)
}

// ReadAttachment streams a finished attachment chunk by chunk (store.Attachments). Each chunk
// is its own short read, so a slow reader holds no transaction open; a chunk that vanished
// because the attachment was deleted meanwhile is models.ErrNotFound, not corruption.
func (s *Store) ReadAttachment(ctx context.Context, tenant, taskID, id string, each func([]byte) error) (models.Attachment, error) {
	att, err := s.Attachment(ctx, tenant, taskID, id)
	if err != nil {
		return att, err
	}
	err = s.sealer().ReadChunks(att, func(seq int) (*storekit.AttachmentChunkRow, error) {
		var rec attachmentChunkRecord
		err := s.inRead(ctx, func(tx *gorm.DB) error {
			return translate(tx.Where("id = ? AND attachment_id = ? AND tenant_id = ? AND task_id = ?",
				storekit.ChunkID(id, seq), id, tenant, taskID).Take(&rec).Error)
		})
		if errors.Is(err, models.ErrNotFound) {
			// Deleted since the read began (not found), or a chunk lost (corrupt).
			if _, gone := s.Attachment(ctx, tenant, taskID, id); gone != nil {
				return nil, gone
			}
			return nil, nil
		}
		return &rec.AttachmentChunkRow, err
	}, each)
	return att, err
}

// DeleteAttachment deletes a finished attachment and its chunks with the event (store.Attachments).
func (s *Store) DeleteAttachment(ctx context.Context, a models.Actor, taskID, id string) (models.Attachment, error) {
	var att models.Attachment
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		t, err := s.reserveEventSeq(tx, a.Tenant, taskID)
		if err != nil {
			return err
		}
		if att, err = s.finishedAttachment(tx, a.Tenant, taskID, id); err != nil {
			return err
		}
		ev, err := models.AttachmentDeleted(t, a, att, now)
		if err != nil {
			return err
		}
		// Chunks first: the cascade would do it, but SQLite cascades only with foreign keys on.
		if err := tx.Where("attachment_id = ?", id).Delete(&attachmentChunkRecord{}).Error; err != nil {
			return translate(err)
		}
		if err := tx.Where("tenant_id = ? AND task_id = ? AND id = ?", a.Tenant, taskID, id).Delete(&attachmentRecord{}).Error; err != nil {
			return translate(err)
		}
		return s.writeRows(tx, &models.Change{Event: &ev})
	})
	if err != nil {
		return models.Attachment{}, err
	}
	return att, nil
}

// AbandonAttachment deletes an unfinished upload with its chunks (store.Attachments).
func (s *Store) AbandonAttachment(ctx context.Context, tenant, taskID, id string) error {
	return s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		var n int64
		if err := unfinished(tx.Model(&attachmentRecord{}), tenant, taskID, id).Count(&n).Error; err != nil {
			return translate(err)
		}
		if n == 0 {
			return nil // finished, swept, or never this task's
		}
		if err := tx.Where("attachment_id = ?", id).Delete(&attachmentChunkRecord{}).Error; err != nil {
			return translate(err)
		}
		return translate(unfinished(tx, tenant, taskID, id).Delete(&attachmentRecord{}).Error)
	})
}

// SweepAttachmentUploads deletes unfinished uploads older than olderThan (store.Attachments).
func (s *Store) SweepAttachmentUploads(ctx context.Context, olderThan time.Duration, limit int) (int, error) {
	if limit <= 0 {
		limit = 100
	}
	var n int
	err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
		var ids []string
		if err := tx.Model(&attachmentRecord{}).Where("created_at IS NULL AND started_at < ?", now.Add(-olderThan)).
			Order("started_at").Limit(limit).Pluck("id", &ids).Error; err != nil {
			return translate(err)
		}
		if len(ids) == 0 {
			return nil
		}
		if err := tx.Where("attachment_id IN ?", ids).Delete(&attachmentChunkRecord{}).Error; err != nil {
			return translate(err)
		}
		res := tx.Where("id IN ? AND created_at IS NULL", ids).Delete(&attachmentRecord{})
		n = int(res.RowsAffected)
		return translate(res.Error)
	})
	return n, err
}

func unfinished(db *gorm.DB, tenant, taskID, id string) *gorm.DB {
	return db.Where("tenant_id = ? AND task_id = ? AND id = ? AND created_at IS NULL", tenant, taskID, id)
}

func finished(db *gorm.DB, tenant, taskID string) *gorm.DB {
	return db.Where("tenant_id = ? AND task_id = ? AND created_at IS NOT NULL", tenant, taskID)
}

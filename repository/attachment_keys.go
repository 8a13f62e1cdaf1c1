package repository

import (
	"context"
	"time"

	"gorm.io/gorm"

	"usertasks/store"
	"usertasks/storekit"
)

// Key rotation and audit of the attachment tables (storekit/attachment_keys.go): small pages,
// because a chunk is up to 1 MiB. Sealed attachment values are never rewritten except here,
// so a reseal needs no compare-and-swap: a concurrent rotation writes the same plain bytes.

func isAttachmentTable(table string) bool {
	return table == storekit.AttachmentTable || table == storekit.AttachmentChunkTable
}

// rekeyAttachments is RekeyPage for an attachment table.
func (s *Store) rekeyAttachments(ctx context.Context, table, after string, limit int, dryRun bool) (store.KeyPage, error) {
	var page store.KeyPage
	err := s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		page = store.KeyPage{ByKey: map[string]int{}}
		if table == storekit.AttachmentTable {
			recs, err := attachmentPage(tx, after, min(positive(limit), 500))
			if err != nil {
				return err
			}
			for i := range recs {
				env, reseal, err := s.sealer().RekeyAttachmentRow(&page, &recs[i].AttachmentRow)
				if err != nil {
					return err
				}
				if reseal && !dryRun {
					if err := tx.Model(&attachmentRecord{}).Where("id = ?", recs[i].ID).Update("file_name_enc", env).Error; err != nil {
						return translate(err)
					}
				}
				if reseal {
					page.Resealed++
				}
			}
			page.Rows, page.Next = pageEnd(len(recs), min(positive(limit), 500), func() string { return recs[len(recs)-1].ID })
			return nil
		}
		size := min(positive(limit), storekit.ChunkPage)
		recs, err := chunkPage(tx, after, size)
		if err != nil {
			return err
		}
		for i := range recs {
			env, reseal, err := s.sealer().RekeyChunkRow(&page, &recs[i].AttachmentChunkRow)
			if err != nil {
				return err
			}
			if reseal && !dryRun {
				if err := tx.Model(&attachmentChunkRecord{}).Where("id = ?", recs[i].ID).Update("chunk_enc", env).Error; err != nil {
					return translate(err)
				}
			}
			if reseal {
				page.Resealed++
			}
		}
		page.Rows, page.Next = pageEnd(len(recs), size, func() string { return recs[len(recs)-1].ID })
		return nil
	})
	return page, err
}

// auditAttachments is AuditSealed for an attachment table: every chunk opens, and every
// finished attachment's bytes match its SHA-256 (an attachment or a chunk that fails is named
// in Unreadable).
func (s *Store) auditAttachments(ctx context.Context, table, after string, limit int) (store.KeyPage, error) {
	page := store.KeyPage{ByKey: map[string]int{}}
	if table == storekit.AttachmentChunkTable {
		size := min(positive(limit), storekit.ChunkPage)
		err := s.inRead(ctx, func(tx *gorm.DB) error {
			recs, err := chunkPage(tx, after, size)
			if err != nil {
				return err
			}
			for i := range recs {
				r := &recs[i].AttachmentChunkRow
				if _, _, err := s.sealer().TallyWith(&page, r.ID, storekit.ChunkAAD(r.TenantID, r.TaskID, r.AttachmentID, r.Seq), string(r.ChunkEnc)); err != nil {
					return err
				}
			}
			page.Rows, page.Next = pageEnd(len(recs), size, func() string { return recs[len(recs)-1].ID })
			return nil
		})
		return page, err
	}
	size := min(positive(limit), storekit.AttachmentPage)
	var recs []attachmentRecord
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		recs, err = attachmentPage(tx, after, size)
		return err
	})
	if err != nil {
		return page, err
	}
	for i := range recs {
		r := &recs[i].AttachmentRow
		// Each chunk is its own short read (as ReadAttachment), never a page of them.
		err := s.codec().AuditAttachment(&page, r, func(seq int) (*storekit.AttachmentChunkRow, error) {
			var c attachmentChunkRecord
			err := s.inRead(ctx, func(tx *gorm.DB) error {
				return tx.Where("id = ? AND attachment_id = ?", storekit.ChunkID(r.ID, seq), r.ID).Limit(1).Find(&c).Error
			})
			if err != nil || c.ID == "" {
				return nil, translate(err)
			}
			return &c.AttachmentChunkRow, nil
		})
		if err != nil {
			return page, err
		}
	}
	page.Rows, page.Next = pageEnd(len(recs), size, func() string { return recs[len(recs)-1].ID })
	return page, nil
}

func attachmentPage(tx *gorm.DB, after string, limit int) ([]attachmentRecord, error) {
	var recs []attachmentRecord
	q := tx.Order("id").Limit(limit)
	if after != "" {
		q = q.Where("id > ?", after)
	}
	return recs, translate(q.Find(&recs).Error)
}

func chunkPage(tx *gorm.DB, after string, limit int) ([]attachmentChunkRecord, error) {
	var recs []attachmentChunkRecord
	q := tx.Order("id").Limit(limit)
	if after != "" {
		q = q.Where("id > ?", after)
	}
	return recs, translate(q.Find(&recs).Error)
}

// pageEnd is a page's row count and next key: "" once a page comes out short.
func pageEnd(n, size int, last func() string) (int, string) {
	if n < size || n == 0 {
		return n, ""
	}
	return n, last()
}

func positive(limit int) int {
	if limit <= 0 {
		return 500
	}
	return limit
}

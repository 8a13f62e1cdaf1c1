package docstore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/store"
	"usertasks/storekit"
)

// Key rotation and audit of the attachment collections (storekit/attachment_keys.go), in
// small pages. Sealed attachment values are written once and never changed except here, so a
// reseal sets the value read: a concurrent rotation writes the same plain bytes.

func isAttachmentTable(table string) bool {
	return table == storekit.AttachmentTable || table == storekit.AttachmentChunkTable
}

func pageSize(limit, most int) int {
	if limit <= 0 {
		limit = 500
	}
	return min(limit, most)
}

func afterID(after string) bson.D {
	if after == "" {
		return bson.D{}
	}
	return bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: after}}}}
}

func byID(limit int) *options.FindOptionsBuilder {
	return options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(limit))
}

// pageEnd is a page's row count and next key: "" once a page comes out short.
func pageEnd(n, size int, last func() string) (int, string) {
	if n < size || n == 0 {
		return n, ""
	}
	return n, last()
}

// rekeyAttachments is RekeyPage for an attachment collection.
func (s *Store) rekeyAttachments(ctx context.Context, table, after string, limit int, dryRun bool) (store.KeyPage, error) {
	page := store.KeyPage{ByKey: map[string]int{}}
	if table == storekit.AttachmentTable {
		size := pageSize(limit, 500)
		var docs []attachmentDoc
		if err := s.findAll(ctx, table, afterID(after), byID(size), &docs); err != nil {
			return page, err
		}
		for i := range docs {
			env, reseal, err := s.sealer().RekeyAttachmentRow(&page, &docs[i].AttachmentRow)
			if err != nil {
				return page, err
			}
			if reseal && !dryRun {
				if _, err := s.attachments().UpdateOne(ctx, bson.D{{Key: "_id", Value: docs[i].ID}, {Key: storekit.ColFileName, Value: docs[i].FileNameEnc}},
					bson.D{{Key: "$set", Value: bson.D{{Key: storekit.ColFileName, Value: env}}}}); err != nil {
					return page, translate(err)
				}
			}
			if reseal {
				page.Resealed++
			}
		}
		page.Rows, page.Next = pageEnd(len(docs), size, func() string { return docs[len(docs)-1].ID })
		return page, nil
	}
	size := pageSize(limit, storekit.ChunkPage)
	var rows []storekit.AttachmentChunkRow
	if err := s.findAll(ctx, table, afterID(after), byID(size), &rows); err != nil {
		return page, err
	}
	for i := range rows {
		env, reseal, err := s.sealer().RekeyChunkRow(&page, &rows[i])
		if err != nil {
			return page, err
		}
		if reseal && !dryRun {
			if _, err := s.chunks().UpdateOne(ctx, bson.D{{Key: "_id", Value: rows[i].ID}},
				bson.D{{Key: "$set", Value: bson.D{{Key: storekit.ColChunk, Value: env}}}}); err != nil {
				return page, translate(err)
			}
		}
		if reseal {
			page.Resealed++
		}
	}
	page.Rows, page.Next = pageEnd(len(rows), size, func() string { return rows[len(rows)-1].ID })
	return page, nil
}

// auditAttachments is AuditSealed for an attachment collection: every chunk opens, and every
// finished attachment's bytes match its SHA-256.
func (s *Store) auditAttachments(ctx context.Context, table, after string, limit int) (store.KeyPage, error) {
	page := store.KeyPage{ByKey: map[string]int{}}
	if table == storekit.AttachmentChunkTable {
		size := pageSize(limit, storekit.ChunkPage)
		var rows []storekit.AttachmentChunkRow
		if err := s.findAll(ctx, table, afterID(after), byID(size), &rows); err != nil {
			return page, err
		}
		for i := range rows {
			r := &rows[i]
			if _, _, err := s.sealer().TallyWith(&page, r.ID, storekit.ChunkAAD(r.TenantID, r.TaskID, r.AttachmentID, r.Seq), string(r.ChunkEnc)); err != nil {
				return page, err
			}
		}
		page.Rows, page.Next = pageEnd(len(rows), size, func() string { return rows[len(rows)-1].ID })
		return page, nil
	}
	size := pageSize(limit, storekit.AttachmentPage)
	var docs []attachmentDoc
	if err := s.findAll(ctx, table, afterID(after), byID(size), &docs); err != nil {
		return page, err
	}
	for i := range docs {
		r := &docs[i].AttachmentRow
		err := s.codec().AuditAttachment(&page, r, func(seq int) (*storekit.AttachmentChunkRow, error) {
			var c storekit.AttachmentChunkRow
			err := s.chunks().FindOne(ctx, bson.D{{Key: "_id", Value: storekit.ChunkID(r.ID, seq)}, {Key: "attachment_id", Value: r.ID}}).Decode(&c)
			if errors.Is(err, mongo.ErrNoDocuments) {
				return nil, nil
			}
			return &c, translate(err)
		})
		if err != nil {
			return page, err
		}
	}
	page.Rows, page.Next = pageEnd(len(docs), size, func() string { return docs[len(docs)-1].ID })
	return page, nil
}

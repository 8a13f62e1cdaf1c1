package docstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

// shortSearch answers a list whose search is 1–2 characters as the SQL store does
// (repository's shortSearch): storekit.ShortSearch walks a bounded window of the list in its
// order (page, without the search, the window in one read of the list items and their search
// text), tests each aggregate in Go, and keeps the matches' list items from that read.
func (s *Store) shortSearch(ctx context.Context, q *taskQuery, now time.Time) (models.TaskPage, error) {
	page := models.TaskPage{Now: now}
	needle := storekit.SearchNeedle(q.f.Search)
	base := *q
	base.f.Search = "" // tested in Go
	where, err := s.conditions(ctx, &base, now)
	if err != nil {
		return models.TaskPage{}, err
	}
	// The walk reads the list items whole (and their search text): on FerretDB a read of the
	// page's items by _id would cost one more scan of the collection, as every read but one
	// by a single _id does ("What serves a search" in docs/document-store.md).
	base.project = append(slices.Clip(summaryFields), bson.E{Key: "search_text", Value: 1})
	items := map[string]*taskDoc{}
	read := func(after *storekit.SortValue, afterID string, n int) ([]storekit.SearchRow, error) {
		c := base
		c.after, c.afterID, c.limit = after, afterID, n-1 // page reads limit+1
		docs, err := s.page(ctx, &c, where)
		if err != nil {
			return nil, err
		}
		rows := make([]storekit.SearchRow, len(docs))
		for i := range docs {
			r := &docs[i].TaskRow
			rows[i] = storekit.SearchRow{ID: r.ID, Value: q.sort.Value(r), Text: r.SearchText}
			if strings.Contains(r.SearchText, needle) {
				items[r.ID] = &docs[i]
			}
		}
		return rows, nil
	}
	window, limit := s.cfg.ShortSearchWindow, s.cfg.TotalCap
	if limit <= 0 {
		limit = models.TotalCap
	}
	// A total counts from the list's start: on a later page it takes a walk of its own.
	count := q.f.IncludeTotal && q.after == nil
	// FerretDB 1.x on SQLite pushes no filter but _id down: every find reads the whole
	// collection, so the window is read at once rather than in chunks (docs/document-store.md).
	sq := storekit.ShortSearchQuery{Needle: needle, Window: window, Chunk: window, Limit: q.limit, Cap: limit,
		After: q.after, AfterID: q.afterID, Count: count}
	if sq.Window <= 0 {
		sq.Window, sq.Chunk = storekit.ShortSearchWindow, storekit.ShortSearchWindow
	}
	sp, err := storekit.ShortSearch(sq, read)
	if err != nil {
		return models.TaskPage{}, err
	}
	if q.f.IncludeTotal && !count {
		sq.After, sq.AfterID, sq.Count = nil, "", true
		first, err := storekit.ShortSearch(sq, read)
		if err != nil {
			return models.TaskPage{}, err
		}
		sp.Total, sp.TotalCapped = first.Total, first.TotalCapped
	}
	if q.f.IncludeTotal {
		page.Total, page.TotalCapped = &sp.Total, sp.TotalCapped
	}
	page.SearchLimited = sp.Limited
	if sp.Next != nil {
		if page.NextCursor, err = storekit.EncodeCursor(q.f.Sort, q.f.Descending, storekit.FilterDigest(q.f), sp.Next.Value, sp.Next.ID); err != nil {
			return models.TaskPage{}, err
		}
	}
	docs := make([]taskDoc, len(sp.IDs))
	for i, id := range sp.IDs {
		docs[i] = *items[id]
	}
	if page.Items, err = s.listItems(docs); err != nil {
		return models.TaskPage{}, err
	}
	return page, nil
}

package docstore

import (
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// shortSearch answers a list whose search is 1–2 characters as the SQL store does
// (repository's shortSearch): storekit.ShortSearch walks a bounded window of the list in its
// order (page, without the search, reading _id, sort field and search text in chunks), tests
// each aggregate in Go, and the page's items are then read by _id.
func (s *Store) shortSearch(ctx context.Context, q *taskQuery, now time.Time) (models.TaskPage, error) {
	page := models.TaskPage{Now: now}
	needle := storekit.SearchNeedle(q.f.Search)
	base := *q
	base.f.Search = "" // tested in Go
	where, err := s.conditions(ctx, &base, now)
	if err != nil {
		return models.TaskPage{}, err
	}
	base.project = bson.D{{Key: "_id", Value: 1}, {Key: q.sort.Column, Value: 1}, {Key: "search_text", Value: 1},
		{Key: "membership_mode", Value: 1}} // what the available scope's check reads beside its fields
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
	docs, err := s.docsByID(ctx, q.f.Tenant, sp.IDs)
	if err != nil {
		return models.TaskPage{}, err
	}
	if page.Items, err = s.listItems(docs); err != nil {
		return models.TaskPage{}, err
	}
	return page, nil
}

// docsByID reads the list items of ids (summaryFields), in the order of ids; an aggregate
// deleted since the walk read it is left out, as a later read would.
func (s *Store) docsByID(ctx context.Context, tenant string, ids []string) ([]taskDoc, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	cur, err := s.tasks().Find(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}},
		options.Find().SetProjection(summaryFields))
	if err != nil {
		return nil, translate(err)
	}
	var found []taskDoc
	if err := cur.All(ctx, &found); err != nil {
		return nil, translate(err)
	}
	byID := make(map[string]taskDoc, len(found))
	for _, d := range found {
		byID[d.ID] = d
	}
	out := make([]taskDoc, 0, len(ids))
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

package repository

import (
	"time"

	"gorm.io/gorm"

	"usertasks/models"
	"usertasks/storekit"
)

// shortSearch answers a list whose search is 1–2 characters (storekit.ShortNeedle), which no
// trigram index serves, or a needle the probe found common (q.searchCommon), whose matches no
// index reads in the list's order: storekit.ShortSearch walks a bounded window of the list in
// its order (the list's own keyset read without the search, listRows, in chunks reading only
// id, sort column and search text), tests each row in Go, and the page's rows are read by id.
// The first page's total counts the window's matches (storekit.ShortSearch's count).
func (s *Store) shortSearch(tx *gorm.DB, q *taskQuery, now time.Time, page *models.TaskPage) error {
	needle := storekit.SearchNeedle(q.f.Search)
	read := func(after *storekit.SortValue, afterID string, n int) ([]storekit.SearchRow, error) {
		c := *q
		c.f.Search = ""                                   // tested in Go
		c.after, c.afterID, c.limit = after, afterID, n-1 // listRows reads limit+1
		c.columns = []string{"id", q.sort.Column, "search_text"}
		recs, err := s.listRows(tx, &c, now, c.conditions(now, s.dialect), s.listTasks(tx, &c))
		if err != nil {
			return nil, err
		}
		rows := make([]storekit.SearchRow, len(recs))
		for i := range recs {
			r := &recs[i].TaskRow
			rows[i] = storekit.SearchRow{ID: r.ID, Value: q.sort.Value(r), Text: r.SearchText}
		}
		return rows, nil
	}
	// A total counts from the list's start: on a later page it takes a walk of its own.
	count := q.f.IncludeTotal && q.after == nil
	sq := storekit.ShortSearchQuery{Needle: needle, Window: s.cfg.ShortSearchWindow, Limit: q.limit, Cap: s.cfg.TotalCap,
		After: q.after, AfterID: q.afterID, Count: count}
	if !count {
		// A page without its total stops at its last match: read in chunks of a few pages
		// rather than the whole window at once, which costs the rows after that match too
		// (a needle in a fifth of the rows fills a page of 50 within some 250 of the window's
		// 1,000). The answers do not depend on the chunk (storekit.ShortSearch).
		sq.Chunk = shortSearchChunkPages * (q.limit + 1)
	}
	sp, err := storekit.ShortSearch(sq, read)
	if err != nil {
		return err
	}
	if q.f.IncludeTotal && !count {
		sq.After, sq.AfterID, sq.Count, sq.Chunk = nil, "", true, 0
		first, err := storekit.ShortSearch(sq, read)
		if err != nil {
			return err
		}
		sp.Total, sp.TotalCapped = first.Total, first.TotalCapped
	}
	if q.f.IncludeTotal {
		page.Total, page.TotalCapped = &sp.Total, sp.TotalCapped
	}
	page.SearchLimited = sp.Limited
	if sp.Next != nil {
		if page.NextCursor, err = storekit.EncodeCursor(q.f.Sort, q.f.Descending, storekit.FilterDigest(q.f), sp.Next.Value, sp.Next.ID); err != nil {
			return err
		}
	}
	recs, err := s.tasksByID(tx, q.f.Tenant, sp.IDs)
	if err != nil {
		return err
	}
	page.Items, err = s.safeTasks(recs)
	return err
}

// shortSearchChunkPages is how many pages' worth of rows one read of a short search without a
// total asks for (a fifth of the window for a page of 50).
const shortSearchChunkPages = 4

// tasksByID reads the list items of ids, in the order of ids (at most a page: one IN list).
func (s *Store) tasksByID(tx *gorm.DB, tenant string, ids []string) ([]taskRecord, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var recs []taskRecord
	if err := tx.Model(&taskRecord{}).Select(summaryColumns).Where("tenant_id = ? AND id IN ?", tenant, ids).Find(&recs).Error; err != nil {
		return nil, translate(err)
	}
	byID := make(map[string]taskRecord, len(recs))
	for _, r := range recs {
		byID[r.ID] = r
	}
	out := make([]taskRecord, 0, len(ids))
	for _, id := range ids {
		// A row deleted since the walk read it (a purge, on a database that reads each
		// statement's own snapshot) is left out, as a later read would.
		if r, ok := byID[id]; ok {
			out = append(out, r)
		}
	}
	return out, nil
}

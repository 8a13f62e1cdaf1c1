package storekit

import (
	"strings"
	"unicode/utf8"

	"usertasks/models"
)

// ShortSearchWindow is the most rows of a list one page of a short search examines (a
// needle of 1–2 characters, which no trigram index can serve): the page then costs a bounded
// walk of the list's own index, whatever the tenant's size (docs/product.md, "Search").
const ShortSearchWindow = models.ShortSearchWindow

// ShortSearchChunk is how many rows one read of a short search asks the store for.
const ShortSearchChunk = 1000

// ShortNeedle reports whether needle (as SearchNeedle returns it) is searched by the short
// search: 1 or 2 characters.
func ShortNeedle(needle string) bool {
	n := utf8.RuneCountInString(needle)
	return n > 0 && n < 3
}

// SearchRow is a row of a list as the short search reads it: its id, sort value and search
// text (SearchText).
type SearchRow struct {
	ID    string
	Value SortValue
	Text  string
}

// RowReader reads up to n rows of the list, without its search, after the position (after,
// afterID) in the list's order (from the start when after is nil): the store's keyset read of
// the list, returning fewer than n only at the list's end.
type RowReader func(after *SortValue, afterID string, n int) ([]SearchRow, error)

// ShortPage is one page of a short search.
type ShortPage struct {
	// IDs are the matching rows of the page in the list's order, at most the limit.
	IDs []string
	// Next is where the next page starts, nil at the list's end: the page's last match when
	// the page is full, else the last row examined (the window ended first).
	Next *SearchRow
	// Limited says the window ended before the page was full while the list continues: the
	// page holds the matches among the rows examined only.
	Limited bool
	// Total counts the matches among the rows examined, at most cap when counted
	// (ShortSearch's count); TotalCapped says the list holds more to search, or more matches.
	Total       int
	TotalCapped bool
}

// ShortSearchQuery is one page's short search.
type ShortSearchQuery struct {
	Needle string // SearchNeedle's, 1–2 characters
	// Window is the most rows the page examines (0: ShortSearchWindow); Chunk the rows one
	// read asks for (0: ShortSearchChunk; a store whose every read costs a scan reads the
	// window at once).
	Window, Chunk int
	Limit         int // the page size
	Cap           int // the most Total counts (the store's TotalCap)
	// After and AfterID are the cursor's position; After is nil on the first page.
	After   *SortValue
	AfterID string
	// Count goes on to the window's end after the page is full, so Total counts the window's
	// matches: the total of a short search counts the first window of the list only (meant
	// for the first page, After nil).
	Count bool
}

// ShortSearch reads one page of the list after the cursor for a short needle: it walks the
// list in its order in chunks, tests each row's search text for the needle in Go (the rule of
// SearchNeedle: a literal substring of the lower-cased text), and stops at Limit+1 matches, at
// the list's end, or after Window rows. Following Next yields exactly the order of one big
// page of matches: a page that ends early resumes at the last row it examined.
func ShortSearch(q ShortSearchQuery, read RowReader) (ShortPage, error) {
	needle, window, chunk, limit, after, afterID, count := q.Needle, q.Window, q.Chunk, q.Limit, q.After, q.AfterID, q.Count
	if window <= 0 {
		window = ShortSearchWindow
	}
	if chunk <= 0 {
		chunk = ShortSearchChunk
	}
	var (
		p        ShortPage
		matches  []SearchRow // at most limit+1
		last     SearchRow   // the last row examined
		examined int
		more     bool // rows of the list remain past the window
	)
walk:
	for {
		// One row more than the window holds tells whether the list continues past it; the
		// last chunk takes it on rather than costing a read of its own.
		n := chunk
		if rest := window - examined + 1; rest <= chunk+1 {
			n = rest
		}
		rows, err := read(after, afterID, n)
		if err != nil {
			return ShortPage{}, err
		}
		for i := range rows {
			if examined == window {
				more = true
				break walk
			}
			examined++
			last = rows[i]
			if !strings.Contains(rows[i].Text, needle) {
				continue
			}
			p.Total++
			if len(matches) <= limit {
				matches = append(matches, rows[i])
			}
			if len(matches) > limit && !count {
				more = true
				break walk
			}
		}
		if len(rows) < n {
			break
		}
		after, afterID = &last.Value, last.ID
	}
	switch {
	case len(matches) > limit:
		matches = matches[:limit]
		p.Next = &matches[limit-1]
	case more:
		p.Next, p.Limited = &last, len(matches) < limit
	}
	p.IDs = make([]string, len(matches))
	for i, m := range matches {
		p.IDs[i] = m.ID
	}
	p.TotalCapped = more
	if p.Total > q.Cap {
		p.Total, p.TotalCapped = q.Cap, true
	}
	return p, nil
}

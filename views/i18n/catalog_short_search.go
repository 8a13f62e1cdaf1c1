package i18n

// ShortSearchText explains the windowed search (1–2 characters, or a needle in very many
// tasks), which looks through a list in windows of storekit.ShortSearchWindow tasks rather
// than all of it at once.
type ShortSearchText struct {
	// Hint sits under the search field: "%s" is the window's size, grouped.
	Hint string
	// Limited is the note on a page the window ended early.
	Limited string
	// LimitedEmpty heads such a page when it found nothing.
	LimitedEmpty string
	// Further is the link to the next window.
	Further string
}

// ShortSearchHint is the search field's hint for a window of n tasks.
func (c *Catalog) ShortSearchHint(n int) string { return c.Format(c.ShortSearch.Hint, c.Number(n)) }

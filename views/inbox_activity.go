package views

// showActivity reports whether the list shows its comment and file column: only when a row
// has something to count, so a list without comments or files keeps its width for the titles.
func showActivity(rows []InboxRow) bool {
	for _, r := range rows {
		if !r.Activity.Zero() {
			return true
		}
	}
	return false
}

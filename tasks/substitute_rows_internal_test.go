package tasks

import (
	"testing"

	"usertasks/models"
)

// TestDecidedRows: the caller's own page decides the rows it reaches past, and no row after a
// windowed own page's end.
func TestDecidedRows(t *testing.T) {
	items := func(ids ...string) []TaskView {
		out := make([]TaskView, len(ids))
		for i, id := range ids {
			out[i].Task.ID = id
		}
		return out
	}
	own := func(next string, ids ...string) models.TaskPage {
		p := models.TaskPage{NextCursor: next}
		for _, id := range ids {
			p.Items = append(p.Items, models.Task{ID: id})
		}
		return p
	}
	page := items("a", "b", "c", "d")
	for _, c := range []struct {
		name string
		own  models.TaskPage
		want int
	}{
		{"OwnListEnded", own("", "b"), 4},
		{"OwnPageFull", own("x", "a", "c", "e", "f"), 4},
		{"OwnPageEmptyAndEnded", own(""), 4},
		{"WindowEndedEarly", own("x", "b"), 2},
		{"WindowEndedBeforeAnyOwnRow", own("x"), 0},
		{"WindowEndedPastThePage", own("x", "z"), 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := decidedRows(page, c.own); got != c.want {
				t.Errorf("decidedRows = %d, want %d", got, c.want)
			}
		})
	}
}

package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers"
	"usertasks/models"
	"usertasks/tasks"
)

// limitedList answers every list as a short search whose window ended: SearchLimited with a
// next cursor, and no items when empty is set.
type limitedList struct {
	handlers.TaskService
	empty bool
}

func (l limitedList) List(ctx context.Context, a models.Actor, f models.TaskFilter) (tasks.Page, error) {
	p, err := l.TaskService.List(ctx, a, f)
	if err == nil {
		p.SearchLimited, p.NextCursor = true, "window-end"
		if l.empty {
			p.Items = nil
		}
	}
	return p, err
}

// TestInboxShortSearchNote: a page a short search's window ended says so in a short note
// with a link that searches on (the next cursor), also when it found nothing, in English and
// German; other pages carry no note; the search field explains the window.
func TestInboxShortSearchNote(t *testing.T) {
	for _, empty := range []bool{false, true} {
		f := newWebFixtureWith(t, func(s handlers.TaskService) handlers.TaskService { return limitedList{s, empty} })
		f.seed(t, webTaskOpts{title: "For finance"})
		for _, tc := range []struct{ lang, note, emptyHead string }{
			{"en", "this page shows what one step found", "No matches in this step of the list."},
			{"de", "Diese Seite zeigt, was ein Schritt gefunden hat", "In diesem Schritt der Liste gibt es keine Treffer."},
		} {
			b := f.signIn(t, "boss")
			b.lang = tc.lang
			p := b.get("/inbox?tab=all&q=fi").wantStatus(http.StatusOK)
			if got := p.text("search-limited"); !strings.Contains(got, tc.note) {
				t.Errorf("%s empty=%v: note %q, want it to say %q", tc.lang, empty, got, tc.note)
			}
			if href := webAttr(p.one("search-further"), "href"); !strings.Contains(href, "cursor=window-end") {
				t.Errorf("%s empty=%v: search further links %q, want the next cursor", tc.lang, empty, href)
			}
			if empty {
				if got := p.text("empty-state"); !strings.Contains(got, tc.emptyHead) {
					t.Errorf("%s: empty state %q, want %q", tc.lang, got, tc.emptyHead)
				}
			} else if !strings.Contains(p.body, "For finance") {
				t.Errorf("%s: the page's task is missing", tc.lang)
			}
		}
	}
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{title: "For finance"})
	for _, tc := range []struct{ lang, hint string }{
		{"en", "1 or 2 characters, and words found in very many tasks, search the list 1,000 tasks at a time; other searches cover all of it."},
		{"de", "1 oder 2 Zeichen und sehr häufige Wörter durchsuchen die Liste in Schritten von 1.000 Aufgaben, andere Suchen die ganze Liste."},
	} {
		b := f.signIn(t, "boss")
		b.lang = tc.lang
		p := b.get("/inbox?tab=all&q=fi").wantStatus(http.StatusOK)
		if p.has("search-limited") {
			t.Errorf("%s: a note on a page the window did not end", tc.lang)
		}
		if got := p.text("filter-q-help"); got != tc.hint {
			t.Errorf("%s: search hint %q, want %q", tc.lang, got, tc.hint)
		}
	}
}

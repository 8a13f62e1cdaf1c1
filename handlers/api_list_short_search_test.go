package handlers_test

import (
	"net/url"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
)

// TestListShortSearchLimited: a 1–2 character search looks at a window of the list (2 rows
// here) per page: a page the window ends early says searchLimited: true, even empty, and its
// nextCursor searches on; the last page and a longer search carry no searchLimited; the total
// counts the first window's matches, capped.
func TestListShortSearchLimited(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{ShortSearchWindow: 2})
	max := handlerstest.Manager("acme", "max")
	for _, title := range []string{"t1 q", "t2", "t3", "t4", "t5 q"} {
		env.Task(t, handlerstest.TaskOpts{Title: title, Assignee: "ann"})
	}
	query := "scope=all&sort=created&direction=asc&limit=5&search=Q"
	want := []struct {
		titles  []string
		limited bool
	}{{[]string{"t1 q"}, true}, {[]string{}, true}, {[]string{"t5 q"}, false}}
	cursor := ""
	for i, w := range want {
		q := query
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		} else {
			q += "&includeTotalCount=true"
		}
		p := listPage(t, env, max, q)
		limited, present := p.raw["searchLimited"]
		if !slices.Equal(p.titles(), w.titles) || present != w.limited || (present && string(limited) != "true") {
			t.Fatalf("page %d: %q searchLimited %s, want %q limited %v", i, p.titles(), limited, w.titles, w.limited)
		}
		if i == 0 && (p.TotalCount == nil || *p.TotalCount != 1 || string(p.raw["totalCountCapped"]) != "true") {
			t.Fatalf("first page: totalCount %s capped %s, want 1 capped (the first window's)", p.raw["totalCount"], p.raw["totalCountCapped"])
		}
		if (p.NextCursor != nil) != (i < len(want)-1) {
			t.Fatalf("page %d: nextCursor %v", i, p.NextCursor)
		}
		if p.NextCursor != nil {
			cursor = *p.NextCursor
		}
	}
	p := listPage(t, env, max, "scope=all&search=t5%20q&includeTotalCount=true")
	if _, ok := p.raw["searchLimited"]; ok || !slices.Equal(p.titles(), []string{"t5 q"}) || string(p.raw["totalCountCapped"]) != "false" {
		t.Fatalf("a 4-character search: %q, %s; want exact, no searchLimited", p.titles(), p.raw)
	}
}

package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// timesIn lists the <time> elements below n.
func timesIn(n *html.Node) []*html.Node {
	var out []*html.Node
	webWalk(n, func(c *html.Node) {
		if c.Type == html.ElementNode && c.Data == "time" {
			out = append(out, c)
		}
	})
	return out
}

func TestInboxRowsAreOneLine(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{title: "Approve invoice", due: webPtr(time.Now().Add(73 * time.Hour))})
	p := f.signIn(t, "ann").get("/inbox?tab=available").wantStatus(http.StatusOK)
	row := rowOf(p, task.ID)

	// The title is the link; no second "Open" button, no summary line.
	if len(webWithin(row, "row-open")) != 0 {
		t.Fatal("the row still has an Open button")
	}
	link := webWithin(row, "row-title")
	if len(link) != 1 || link[0].Data != "a" || webAttr(link[0], "href") != "/tasks/"+task.ID {
		t.Fatal("the title is not the row's link")
	}
	if got := webText(webWithin(row, "row-reference")[0]); got != "Reference: INV-42" {
		t.Fatalf("reference %q", got)
	}
	if strings.Contains(webText(row), "Supplier ACME") {
		t.Fatal("the row shows the summary, a second line")
	}
	// Due and updated are relative, with the absolute time as the tooltip of a <time>.
	for _, cell := range []string{"due", "row-updated"} {
		n := webWithin(row, cell)
		if len(n) != 1 {
			t.Fatalf("%d %s cells", len(n), cell)
		}
		ts := timesIn(n[0])
		if len(ts) != 1 {
			t.Fatalf("%s has %d <time> elements", cell, len(ts))
		}
		if _, err := time.Parse(time.RFC3339, webAttr(ts[0], "datetime")); err != nil {
			t.Fatalf("%s datetime %q", cell, webAttr(ts[0], "datetime"))
		}
		if !strings.HasSuffix(webAttr(ts[0], "title"), "UTC") {
			t.Fatalf("%s tooltip %q, want the absolute time", cell, webAttr(ts[0], "title"))
		}
		if strings.Contains(webText(n[0]), "UTC") {
			t.Fatalf("%s shows the absolute time on the line: %q", cell, webText(n[0]))
		}
	}
	webWantContains(t, "due", webText(webWithin(row, "due")[0]), "in 3 days")
	// Row actions stay where they are allowed.
	if len(webWithin(row, "row-claim")) != 1 {
		t.Fatal("the claim action is gone")
	}
}

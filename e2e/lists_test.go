package e2e

import (
	"strings"
	"testing"
)

// listWidths are the screens the lists must fit: two laptops, a desktop and a phone.
var listWidths = []viewport{
	{name: "1280px", width: 1280, height: 800},
	desktop,
	{name: "1920px", width: 1920, height: 1080},
	phone,
}

// listFitScript lists what does not fit on an inbox page: the document or the list scrolling
// sideways, the table sticking out of the main column, a row wider than its card, a title on
// more than one line, a cut title without an ellipsis or without the full title as its tooltip.
const listFitScript = `(() => {
  const out = [];
  const px = v => Math.round(v);
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push("the page scrolls sideways: " + root.scrollWidth + " > " + root.clientWidth);
  const main = document.querySelector("main").getBoundingClientRect();
  const table = document.querySelector('[data-testid="task-list"]');
  if (!table) return out;
  if (table.scrollWidth > table.clientWidth) out.push("the table's content is " + table.scrollWidth + " px in a " + table.clientWidth + " px box");
  const t = table.getBoundingClientRect();
  if (t.right > main.right + 0.5 || t.left < main.left - 0.5) out.push("the table [" + px(t.left) + ", " + px(t.right) + "] sticks out of its column [" + px(main.left) + ", " + px(main.right) + "]");
  for (const row of table.querySelectorAll("[data-task-row]")) {
    const r = row.getBoundingClientRect();
    if (row.scrollWidth > row.clientWidth + 0.5 || r.right > t.right + 0.5) out.push("row «" + row.textContent.trim().slice(0, 30) + "» is wider than its card");
    const cell = row.querySelector("td.tasks__title");
    const link = cell.querySelector('[data-testid="row-title"]');
    const lh = parseFloat(getComputedStyle(link).lineHeight) || 20;
    if (link.getBoundingClientRect().height > 1.5 * lh) out.push("title «" + link.textContent.slice(0, 30) + "» takes " + px(link.getBoundingClientRect().height) + " px, more than one line");
    if (link.getAttribute("title") !== link.textContent) out.push("title «" + link.textContent.slice(0, 30) + "» has no full-title tooltip");
    for (const el of [cell, link]) {
      if (el.scrollWidth > el.clientWidth + 0.5 && getComputedStyle(el).textOverflow !== "ellipsis") {
        out.push("title «" + link.textContent.slice(0, 30) + "» is cut without an ellipsis");
      }
    }
  }
  return out;
})()`

// longTitleScript gives the first row a title far longer than any screen, as a workflow may
// send, and reports whether it stays on one line, is cut with an ellipsis and keeps the table
// in its card ("" when it does).
const longTitleScript = `(() => {
  const row = document.querySelector("[data-task-row]");
  if (!row) return "";
  const cell = row.querySelector("td.tasks__title"), link = cell.querySelector('[data-testid="row-title"]');
  const long = "Reconcile the quarterly supplier statements of Blue Harbor Ltd against the ledger and the open purchase orders before the audit";
  link.textContent = long;
  link.setAttribute("title", long);
  const lh = parseFloat(getComputedStyle(link).lineHeight) || 20;
  const table = row.closest("table");
  if (link.getBoundingClientRect().height > 1.5 * lh) return "a long title wraps to " + Math.round(link.getBoundingClientRect().height) + " px";
  if (!(cell.scrollWidth > cell.clientWidth)) return "a long title is not cut";
  if (getComputedStyle(cell).textOverflow !== "ellipsis") return "a long title is cut without an ellipsis";
  if (table.scrollWidth > table.clientWidth || document.documentElement.scrollWidth > document.documentElement.clientWidth) return "a long title widens the table";
  return "";
})()`

// closedCellScript fills an open row's empty Closed cell as a closed task's would read with a
// long name and action (the demo's first page has no closed task), so the measure covers it.
const closedCellScript = `(() => {
  const cell = document.querySelector("[data-task-row] td.tasks__open");
  if (!cell) return false;
  cell.classList.remove("tasks__open");
  cell.innerHTML = '<span class="cell-label cell-label--shown">Closed</span><span class="closed tasks__clip" title="x" data-testid="row-closed">' +
    '<time class="ts ts--short">vor 23 Stunden</time> von Maximiliane Mustermann-Schönberger · Zur Prüfung an die Rechtsabteilung weitergeben</span>';
  return true;
})()`

// TestListsFitAtEveryWidth opens the manager's and a candidate's lists in English and German at
// 1280, 1366, 1920 and 375 px: nothing scrolls sideways, the table stays in its card, and a
// title keeps to one line, cut with an ellipsis and whole in its tooltip (issue 26, item 7).
func TestListsFitAtEveryWidth(t *testing.T) {
	srv, b, shots := newRig(t)
	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			for _, user := range []string{"ava", "ben"} {
				p := b.open(t, srv.URL, user, desktop, shots)
				p.setLanguage(lang)
				p.signIn("acme", false)
				tabs := map[string][]string{"ava": {"all", "needs-attention", "history"}, "ben": {"available", "assigned"}}[user]
				for _, vp := range listWidths {
					p.resize(vp)
					for _, tab := range tabs {
						p.navigate("/inbox?tab=" + tab)
						p.waitVisible(testid("list-area"))
						if tab == "all" {
							eval[bool](p, closedCellScript)
						}
						if bad := eval[[]string](p, listFitScript); len(bad) > 0 {
							p.shot("overflow-" + tab + "-" + vp.name)
							t.Errorf("%s's %s tab at %s: %d problems:\n  %s", user, tab, vp.name, len(bad), strings.Join(bad, "\n  "))
						}
						shown := vp == desktop || vp == phone
						if shown {
							p.shot(lang + "-" + tab + "-" + vp.name)
							if tab == tabs[0] {
								p.axe(user + " " + tab)
							}
						}
						if bad := eval[string](p, longTitleScript); bad != "" {
							p.shot("long-title-" + tab + "-" + vp.name)
							t.Errorf("%s's %s tab at %s: %s", user, tab, vp.name, bad)
						} else if shown && tab == tabs[0] {
							p.shot(lang + "-" + tab + "-" + vp.name + "-long-title")
						}
					}
				}
				if user == "ava" {
					// The status filter's groups and hints (item 22), opened by a chosen status.
					for _, vp := range []viewport{desktop, phone} {
						p.resize(vp)
						p.navigate("/inbox?tab=all&status=Completing")
						p.waitVisible(testid("status-group-workflow"))
						p.shot(lang + "-status-filter-" + vp.name)
					}
				}
				p.checkNoErrors()
			}
		})
	}
}

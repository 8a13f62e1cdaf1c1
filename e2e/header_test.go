package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// contentTopScript is where the page's content starts: the top of main's first element, in
// page coordinates.
const contentTopScript = `(() => {
  const first = document.querySelector("main").firstElementChild;
  return Math.round(first.getBoundingClientRect().top + window.scrollY);
})()`

// TestHeaderOnPhone: at 375 px the header is one row and the content starts within 120 px, for
// a manager and an assignee, in English and German; the navigation, the user and the language
// switcher are one tap away in the site menu (no script needed), and shown without the menu
// button on a desktop.
func TestHeaderOnPhone(t *testing.T) {
	srv, b, shots := newRig(t)
	for _, user := range []string{"ava", "ben"} {
		for _, lang := range []string{"en", "de"} {
			t.Run(user+"-"+lang, func(t *testing.T) {
				p := b.open(t, srv.URL, user, phone, shots)
				p.setLanguage(lang)
				p.signIn("acme", false)
				for _, path := range []string{"/inbox", "/inbox?tab=history"} {
					p.navigate(path)
					p.waitVisible(testid("site-header"))
					if top := eval[int](p, contentTopScript); top > 120 {
						p.shot("header-" + lang)
						t.Errorf("%s at 375 px (%s): the content starts at %d px, want ≤ 120", path, lang, top)
					}
				}
				if eval[bool](p, `document.querySelector('[data-testid="sign-out"]').checkVisibility()`) {
					t.Error("the folded menu shows its contents")
				}
				p.do("open the site menu", chromedp.Click(chromedp.CSS(testid("site-menu-toggle")), chromedp.NodeVisible))
				for _, id := range []string{"user-name", "sign-out", "sign-out-everywhere", "lang-switch"} {
					if !eval[bool](p, `document.querySelector('[data-testid="`+id+`"]').checkVisibility()`) {
						t.Errorf("the open menu does not show %s", id)
					}
				}
				if user == "ava" && !eval[bool](p, `document.querySelector('[data-testid="nav-manage"]').checkVisibility()`) {
					t.Error("the open menu does not show Manage")
				}
				if bad := eval[[]string](p, overflowScript); len(bad) > 0 {
					t.Errorf("the open menu at 375 px (%s): %d controls do not fit: %v", lang, len(bad), bad)
				}
				p.shot("header-menu-375px-" + lang)
				p.axe("site menu open (" + lang + ")")

				d := b.open(t, srv.URL, user, desktop, shots)
				d.setLanguage(lang)
				d.signIn("acme", false)
				if eval[bool](d, `document.querySelector('[data-testid="site-menu-toggle"]').checkVisibility()`) ||
					!eval[bool](d, `document.querySelector('[data-testid="sign-out"]').checkVisibility()`) {
					t.Error("on a desktop the header folds its menu")
				}
				if top := eval[int](d, contentTopScript); top > 120 {
					t.Errorf("at 1366 px the content starts at %d px", top)
				}
				d.shot("header-1366px-" + lang)
			})
		}
	}
}

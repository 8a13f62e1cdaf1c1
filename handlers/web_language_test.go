package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestWebLanguageSwitch checks the language switcher of every page: a form posting to
// /language with the page's CSRF token and the page to come back to; the cookie it sets wins
// over Accept-Language, which stays the default without one.
func TestWebLanguageSwitch(t *testing.T) {
	f := newSessionFixture(t, sessionFixtureOpts{})
	task, inv := f.guestInvite(t, nil)

	// switcher finds the page's switcher and checks it offers the other language.
	switcher := func(t *testing.T, p *webPage, lang, back string) url.Values {
		t.Helper()
		form := p.one("lang-switch")
		if webAttr(form, "method") != "post" || webAttr(form, "action") != "/language" {
			t.Fatalf("switcher %s %s", webAttr(form, "method"), webAttr(form, "action"))
		}
		values := webFormValues(form)
		if values.Get("csrf_token") == "" || values.Get("return") != back {
			t.Fatalf("switcher values %v, want return %q and a token", values, back)
		}
		if got := p.lang(); got != lang {
			t.Fatalf("page in %q, want %q", got, lang)
		}
		if webAttr(p.one("lang-current"), "lang") != lang {
			t.Fatalf("the switcher names %q as current", webAttr(p.one("lang-current"), "lang"))
		}
		other := map[string]string{"en": "de", "de": "en"}[lang]
		if b := p.one("lang-" + other); webAttr(b, "name") != "lang" || webAttr(b, "value") != other {
			t.Fatalf("the switcher does not offer %s", other)
		}
		return values
	}

	t.Run("OK_SignedIn", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.lang = "en-GB,en;q=0.9"
		page := ann.get("/tasks/" + task.ID + "?x=1").wantStatus(http.StatusOK)
		values := switcher(t, page, "en", "/tasks/"+task.ID+"?x=1")
		values.Set("lang", "de")
		res := ann.post("/language", values)
		if res.status != http.StatusSeeOther || res.location != "/tasks/"+task.ID+"?x=1" {
			t.Fatalf("switch: %d → %q", res.status, res.location)
		}
		// The cookie wins over the browser's Accept-Language, on every page.
		switcher(t, ann.follow(res).wantStatus(http.StatusOK), "de", "/tasks/"+task.ID+"?x=1")
		switcher(t, ann.get("/inbox?tab=history").wantStatus(http.StatusOK), "de", "/inbox?tab=history")
		switcher(t, ann.get("/tasks/no-such-task").wantStatus(http.StatusNotFound), "de", "/tasks/no-such-task")
		values = webFormValues(ann.get("/inbox").one("lang-switch"))
		values.Set("lang", "en")
		switcher(t, ann.follow(ann.post("/language", values)), "en", "/inbox")
	})
	t.Run("OK_AcceptLanguageIsTheDefault", func(t *testing.T) {
		b := f.browser(t)
		b.lang = "de-AT,de;q=0.9,en;q=0.5"
		switcher(t, b.get("/login").wantStatus(http.StatusOK), "de", "/login")
		b.lang = "fr"
		switcher(t, b.get("/login").wantStatus(http.StatusOK), "en", "/login")
	})
	t.Run("OK_SignInPage", func(t *testing.T) {
		b := f.browser(t)
		values := switcher(t, b.get("/login").wantStatus(http.StatusOK), "en", "/login")
		values.Set("lang", "de")
		res := b.post("/language", values)
		if res.status != http.StatusSeeOther || res.location != "/login" {
			t.Fatalf("switch: %d → %q", res.status, res.location)
		}
		switcher(t, b.follow(res), "de", "/login")
		b.signIn("ann")
		switcher(t, b.get("/inbox").wantStatus(http.StatusOK), "de", "/inbox")
	})
	t.Run("OK_GuestPage", func(t *testing.T) {
		b := f.browser(t)
		// Guest pages send no referrer: the browser's Origin is "null".
		b.header = http.Header{"Origin": {"null"}, "Sec-Fetch-Site": {"same-origin"}}
		screen := b.get("/guest?t=" + url.QueryEscape(inv.Token)).wantStatus(http.StatusOK)
		values := switcher(t, screen, "en", "/guest")
		if values.Get("t") != inv.Token {
			t.Fatalf("the switcher does not carry the link's token: %v", values)
		}
		values.Set("lang", "de")
		res := b.post("/language", values)
		if res.status != http.StatusSeeOther || res.location != "/guest?t="+url.QueryEscape(inv.Token) {
			t.Fatalf("switch: %d → %q", res.status, res.location)
		}
		switcher(t, b.follow(res).wantStatus(http.StatusOK), "de", "/guest")
		// The guest's task page, after the code.
		b.header = nil
		task := b.guestOpen(inv)
		switcher(t, task, "de", "/guest/task")
	})
	t.Run("ErrHostileInput", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		values := webFormValues(ann.get("/inbox").one("lang-switch"))
		// Without the token, or from another site: refused.
		ann.post("/language", url.Values{"lang": {"de"}, "return": {"/inbox"}}).wantStatus(http.StatusForbidden)
		ann.header = http.Header{"Sec-Fetch-Site": {"cross-site"}}
		ann.post("/language", url.Values{"csrf_token": values["csrf_token"], "lang": {"de"}, "return": {"/inbox"}}).wantStatus(http.StatusForbidden)
		ann.header = nil
		if got := ann.get("/inbox").lang(); got != "en" {
			t.Fatalf("a refused switch changed the language to %q", got)
		}
		for _, back := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "\\\\evil.example", "javascript:alert(1)",
			"/%0d%0aSet-Cookie:x=y", "", "inbox", "/\t/evil.example", strings.Repeat("/a", 5000)} {
			v := url.Values{"csrf_token": values["csrf_token"], "lang": {"de"}, "return": {back}}
			res := ann.post("/language", v)
			if res.status != http.StatusSeeOther || res.location != "/" {
				t.Fatalf("return %q: %d → %q, want 303 → /", back, res.status, res.location)
			}
		}
		// A same-site path with an encoded slash stays on the site.
		res := ann.post("/language", url.Values{"csrf_token": values["csrf_token"], "lang": {"de"}, "return": {"/%2F%2Fevil.example/x?y=1"}})
		if res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, "/") || strings.HasPrefix(res.location, "//") {
			t.Fatalf("encoded slashes: %d → %q", res.status, res.location)
		}
		// The guest link's token is a query value, never more.
		res = ann.post("/language", url.Values{"csrf_token": values["csrf_token"], "lang": {"de"}, "return": {"/guest"}, "t": {"x&y=1#z\r\nLocation: //evil"}})
		if res.status != http.StatusSeeOther || res.location != "/guest?t=x%26y%3D1%23z%0D%0ALocation%3A+%2F%2Fevil" {
			t.Fatalf("guest token: %d → %q", res.status, res.location)
		}
		for _, lang := range []string{"", "fr", "DE", "de-DE", "de\r\nSet-Cookie: x=y", "<script>", strings.Repeat("e", 4000)} {
			v := url.Values{"csrf_token": values["csrf_token"], "lang": {lang}, "return": {"/inbox"}}
			res := ann.post("/language", v)
			if res.status != http.StatusBadRequest {
				t.Fatalf("lang %q: %d, want 400", lang, res.status)
			}
			for _, ck := range res.cookies {
				if strings.HasSuffix(ck.Name, "ut_lang") {
					t.Fatalf("lang %q set the cookie to %q", lang, ck.Value)
				}
			}
		}
	})
	t.Run("ErrBadCookieIgnored", func(t *testing.T) {
		b := f.browser(t)
		b.lang = "de"
		for _, v := range []string{"xx", "english", "en\u202e"} {
			b.header = http.Header{"Cookie": {"ut_lang=" + url.QueryEscape(v) + "; __Host-ut_lang=" + url.QueryEscape(v)}}
			if got := b.get("/login").wantStatus(http.StatusOK).lang(); got != "de" {
				t.Fatalf("cookie %q: page in %q, want Accept-Language's de", v, got)
			}
		}
	})
}

package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// hostileIDs are path segments an attacker puts where an id goes, already escaped for the URL.
var hostileIDs = map[string]string{
	"Slash":         url.PathEscape("a/b"),
	"EncodedSlash":  "a%252Fb",
	"DotDot":        "..%2F..%2Fetc",
	"EncodedDotDot": "%2E%2E",
	"CRLF":          url.PathEscape("x\r\nX-Injected: 1"),
	"NUL":           url.PathEscape("a\x00b"),
	"Bidi":          url.PathEscape("\u202Eexe.txt"),
	"Quotes":        url.PathEscape(`"><script>alert(1)</script>`),
	"SQL":           url.PathEscape("' OR '1'='1"),
	"Long":          strings.Repeat("a", 8000),
	"NonASCII":      url.PathEscape("ünïcødé-日本"),
}

// TestAttackHostileIDs puts hostile ids into every route of the route table that takes one,
// as a manager of the tenant (bearer token for the API, session for the pages): the answer is
// a refusal (400, 403, 404 or 422; 429 once the invitation endpoints' budget is spent), never a 500, never a
// header made of the id, never the id's markup or control characters echoed raw.
func TestAttackHostileIDs(t *testing.T) {
	f := newAttackFixture(t)
	b := f.signInAs(t, "t1", "boss")
	csrf := b.get("/inbox").csrf()
	token := f.token(t, handlerstest.Manager("t1", "boss"))
	routes := 0
	for _, r := range f.routes() {
		if !strings.Contains(r.Path, "/:") {
			continue
		}
		routes++
		for name, id := range hostileIDs {
			path := fillRouteRaw(r.Path, id)
			var status int
			var header http.Header
			var body string
			if strings.HasPrefix(r.Path, "/api/") {
				req := mustRequest(t, r.Method, f.srv.URL+path, token, nil, `{"expectedRevision":1}`)
				res, err := noRedirects.Do(req)
				if err != nil {
					t.Fatalf("%s %s: %v", r.Method, path, err)
				}
				raw := make([]byte, 64<<10)
				n, _ := res.Body.Read(raw)
				res.Body.Close()
				status, header, body = res.StatusCode, res.Header, string(raw[:n])
			} else {
				p := b.send(r.Method, path, url.Values{"csrf_token": {csrf}})
				status, header, body = p.status, p.header, p.body
			}
			what := r.Method + " " + r.Path + " " + name
			switch status {
			case http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusForbidden:
			case http.StatusOK:
				// The guest API answers every token with the same challenge (SPEC 5.3).
				if r.Path != "/api/v1/user-task-invitations/:token" {
					t.Errorf("%s: 200", what)
				}
			case http.StatusTooManyRequests:
				// The anonymous invitation endpoints allow 10 attempts per address (SPEC 6).
				if !strings.HasPrefix(r.Path, "/api/v1/user-task-invitations/") {
					t.Errorf("%s: 429", what)
				}
			default:
				t.Errorf("%s: %d", what, status)
			}
			if header.Get("X-Injected") != "" {
				t.Errorf("%s: the id became a header", what)
			}
			if strings.ContainsAny(body, "\x00\u202E") || strings.Contains(body, "<script>alert(1)") {
				t.Errorf("%s: the answer echoes the id raw: %.300s", what, body)
			}
		}
	}
	if routes < 25 {
		t.Fatalf("only %d routes with ids", routes)
	}
}

// fillRouteRaw puts an already escaped segment into every parameter of path.
func fillRouteRaw(path, segment string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") {
			parts[i] = segment
		}
	}
	return strings.Join(parts, "/")
}

// TestAttackSessionCookieTampering: a session cookie with flipped bytes, cut short, padded,
// emptied or replaced by garbage is simply signed out — the pages send to the sign-in page, the
// API answers 401 — never an error page.
func TestAttackSessionCookieTampering(t *testing.T) {
	f := newAttackFixture(t)
	b := f.signInAs(t, "t1", "boss")
	var name, value string
	for _, c := range b.client.Jar.Cookies(mustURL(t, f.srv.URL)) {
		if strings.HasSuffix(c.Name, "ut_session") {
			name, value = c.Name, c.Value
		}
	}
	if value == "" {
		t.Fatal("no session cookie")
	}
	flip := func(i int) string {
		v := []byte(value)
		if v[i] == 'A' {
			v[i] = 'B'
		} else {
			v[i] = 'A'
		}
		return string(v)
	}
	for tamper, v := range map[string]string{
		"FlippedFirst": flip(0), "FlippedMiddle": flip(len(value) / 2), "FlippedLast": flip(len(value) - 1),
		"Truncated": value[:len(value)/2], "Padded": value + "AAAA", "Empty": "", "Garbage": "%%%not-a-cookie",
		"Long": strings.Repeat(value, 100), "NUL": value + "%00",
	} {
		t.Run(tamper, func(t *testing.T) {
			page := mustRequest(t, http.MethodGet, f.srv.URL+"/inbox", "", nil)
			page.Header.Set("Cookie", name+"="+v)
			res, err := noRedirects.Do(page)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login") {
				t.Errorf("page: %d → %q, want the sign-in page", res.StatusCode, res.Header.Get("Location"))
			}
			api := mustRequest(t, http.MethodGet, f.srv.URL+"/api/v1/user-tasks", "", nil)
			api.Header.Set("Cookie", name+"="+v)
			res, err = noRedirects.Do(api)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("API: %d, want 401", res.StatusCode)
			}
		})
	}
	// The untouched cookie still works: the refusals were the tampering's.
	if p := b.get("/inbox"); p.status != http.StatusOK {
		t.Fatalf("the real session: %d", p.status)
	}
}

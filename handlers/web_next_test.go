package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// hostileNext lists return addresses an attacker might plant in a sign-in link, and where each
// must land: /inbox when it leaves the allowed pages once a browser resolves it, else the
// normalised same-origin page.
var hostileNext = []struct {
	name, next, want string
}{
	{"DotSegments", "/tasks/../../evil", "/inbox"},
	{"DotSegmentsBackIntoTasks", "/tasks/a/../b", "/tasks/b"},
	{"EncodedDots", "/tasks/%2e%2e/x", "/inbox"},
	{"EncodedDotsUpperCase", "/tasks/%2E%2E/%2E%2E/evil", "/inbox"},
	{"HalfEncodedDots", "/tasks/.%2e/x", "/inbox"},
	{"EncodedSlashDots", "/tasks/..%2F..%2Fevil", "/inbox"},
	{"DotSegmentsInInbox", "/inbox/../admin", "/inbox"},
	{"SingleDots", "/./inbox/.?tab=history", "/inbox?tab=history"},
	{"DotsThenTask", "/inbox/../tasks/t-1", "/tasks/t-1"},
	{"ProtocolRelative", "//evil.example/tasks/x", "/inbox"},
	{"Backslash", "/\\evil.example", "/inbox"},
	{"EncodedSlashes", "/%2F%2Fevil.example", "/inbox"},
	{"EncodedBackslashes", "/%5C%5Cevil.example", "/inbox"},
	{"EncodedSlashesInTasks", "/tasks/%2F%2Fevil.example", "/tasks/evil.example"},
	{"EncodedBackslashInTasks", "/tasks/%5Cevil", "/inbox"},
	{"SchemeWithoutSlashes", "https:evil.example", "/inbox"},
	{"AbsoluteURL", "https://evil.example/tasks/x", "/inbox"},
	{"JavaScript", "javascript:alert(1)", "/inbox"},
	{"HeaderInjection", "/inbox\r\nSet-Cookie: a=b", "/inbox"},
	{"EncodedHeaderInjection", "/tasks/%0d%0aSet-Cookie:a=b", "/inbox"},
	{"Tab", "/\t/evil.example", "/inbox"},
	{"EncodedTabBeforeSlash", "/tasks/%09/../../evil", "/inbox"},
	{"EncodedNUL", "/tasks/x%00", "/inbox"},
	{"EncodedDEL", "/tasks/%7f", "/inbox"},
	{"Space", "/tasks/a b", "/tasks/a%20b"},
	{"NonASCII", "/tasks/ü", "/tasks/%C3%BC"},
	{"DoubleEncodedDotsStayLiteral", "/tasks/%252e%252e/x", "/tasks/%252e%252e/x"},
	{"FragmentDropped", "/tasks/x#//evil.example", "/tasks/x"},
	{"OtherPage", "/logout", "/inbox"},
	{"TasksWithoutID", "/tasks/", "/inbox"},
	{"Huge", strings.Repeat("/tasks/a", 1000), "/inbox"},
	{"Empty", "", "/inbox"},
	{"Plain", "/inbox?tab=available&cursor=x%2By", "/inbox?tab=available&cursor=x%2By"},
}

// TestLoginNextNormalized sends every hostile return address through both ways a sign-in
// redirects (the dev login form and an already signed-in visit of /login) and checks the
// Location: a normalised page of this site, resolving to itself, or /inbox.
func TestLoginNextNormalized(t *testing.T) {
	f := newWebFixture(t)
	signedIn := f.signIn(t, "ann")
	for _, tt := range hostileNext {
		t.Run(tt.name, func(t *testing.T) {
			b := f.browser(t)
			login := b.get("/login")
			res := b.post("/login/dev", url.Values{"user": {"t1/ann"}, "next": {tt.next}, "csrf_token": {login.csrf()}})
			if res.status != http.StatusSeeOther || res.location != tt.want {
				t.Errorf("POST /login/dev next=%.80q: %d → %.80q, want 303 → %q", tt.next, res.status, res.location, tt.want)
			}
			again := signedIn.get("/login?next=" + url.QueryEscape(tt.next))
			if again.status != http.StatusSeeOther || again.location != tt.want {
				t.Errorf("GET /login next=%.80q signed in: %d → %.80q, want 303 → %q", tt.next, again.status, again.location, tt.want)
			}
			requireSameOriginPage(t, again.location)
		})
	}
}

// requireSameOriginPage fails unless loc, resolved as a browser would against this site, stays
// on the site and on the page it names.
func requireSameOriginPage(t *testing.T, loc string) {
	t.Helper()
	base, _ := url.Parse("https://site.example/login")
	ref, err := url.Parse(loc)
	if err != nil {
		t.Fatalf("Location %q does not parse: %v", loc, err)
	}
	got := base.ResolveReference(ref)
	if got.Host != base.Host || got.RequestURI() != loc {
		t.Fatalf("Location %q resolves to %s", loc, got)
	}
	if lower := strings.ToLower(loc); strings.Contains(lower, "%2e") || strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") {
		t.Fatalf("Location %q keeps an encoded dot or slash a browser may resolve", loc)
	}
}

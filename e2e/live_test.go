package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/golang-jwt/jwt/v5"
)

// slowRuntime is a workflow runtime that acknowledges a stimulus the way a real engine does:
// it answers the delivery at once and removes the bookmark later, through the runtime API.
type slowRuntime struct {
	srv    *httptest.Server
	secret []byte // the HS256 secret the server under test verifies tokens with
	delay  time.Duration

	mu      sync.Mutex
	webURL  string
	removed chan time.Time // when each removal was acknowledged by the server
}

func newSlowRuntime(t *testing.T, delay time.Duration) *slowRuntime {
	t.Helper()
	rt := &slowRuntime{secret: []byte(strings.Repeat("r", 40)), delay: delay, removed: make(chan time.Time, 8)}
	rt.srv = httptest.NewServer(http.HandlerFunc(rt.serve))
	t.Cleanup(rt.srv.Close)
	return rt
}

// env is what `web serve` needs to use this runtime and accept its tokens.
func (rt *slowRuntime) env() []string {
	return []string{
		"USERTASKS_RUNTIME_URL=" + rt.srv.URL,
		"USERTASKS_RUNTIME_SECRET=" + strings.Repeat("s", 40),
		"USERTASKS_JWT_HS256_SECRET=" + string(rt.secret),
	}
}

func (rt *slowRuntime) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/user-task-stimuli") {
		// Reconciliation's listings: this runtime keeps no list; reconciliation waits.
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	var s struct {
		Tenant     string `json:"tenant"`
		BookmarkID string `json:"bookmarkId"`
	}
	if err := json.NewDecoder(r.Body).Decode(&s); err != nil || s.BookmarkID == "" {
		http.Error(w, "bad stimulus", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
	go func() {
		time.Sleep(rt.delay)
		rt.remove(s.Tenant, s.BookmarkID)
	}()
}

// remove tells the server the bookmark is gone, as the engine's workflow moved on.
func (rt *slowRuntime) remove(tenant, bookmarkID string) {
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": "engine", "tenant": tenant, "permissions": []string{"user-tasks/runtime:write"},
		"exp": time.Now().Add(5 * time.Minute).Unix(), "iat": time.Now().Unix(),
	}).SignedString(rt.secret)
	if err != nil {
		return
	}
	body, _ := json.Marshal(map[string][]string{"bookmarkIds": {bookmarkID}})
	rt.mu.Lock()
	base := rt.webURL
	rt.mu.Unlock()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/runtime/bookmarks/removed", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		rt.removed <- time.Now()
	}
}

// streamGate holds or refuses the tab's live-update stream requests, to put the page where
// the issue found it: the change lands before the page's stream is open (held), or the stream
// never opens at all (refused: a proxy that buffers or drops event streams).
type streamGate struct {
	release chan struct{} // closed: held requests go on
	refuse  bool
}

// gateStream intercepts the tab's requests of the stream from now on.
func (p *page) gateStream(refuse bool) *streamGate {
	p.t.Helper()
	g := &streamGate{release: make(chan struct{}), refuse: refuse}
	if _, err := chromedp.Call(p.ctx, fetch.Enable, fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/v1/user-tasks/stream*"}},
	}); err != nil {
		p.t.Fatalf("intercept the stream: %v", err)
	}
	go func() {
		for ev, err := range chromedp.Events(p.ctx, fetch.RequestPaused) {
			if err != nil {
				return
			}
			go func(id fetch.RequestID) {
				if g.refuse {
					_, _ = chromedp.Call(p.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonConnectionRefused})
					return
				}
				select {
				case <-g.release:
				case <-p.ctx.Done():
					return
				}
				_, _ = chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
			}(ev.RequestID)
		}
	}()
	return g
}

// TestTaskPageReachesCompleted: after a submit the task page shows "Completing"; when the
// runtime acknowledges (here two seconds later, as an engine that resumes the workflow first
// would), the page shows the terminal state by itself within about a second, without a reload
// — when the acknowledgement lands before the page's live stream is open (the stream catches
// up when it opens, and the page polls until then), and when the stream never opens (the page
// polls). At a desktop size in English and at 375 px in German.
func TestTaskPageReachesCompleted(t *testing.T) {
	chromiumPath(t)
	rt := newSlowRuntime(t, 2*time.Second)
	srv := startServerEnv(t, rt.env()...)
	rt.mu.Lock()
	rt.webURL = srv.URL
	rt.mu.Unlock()
	b, shots := newBrowser(t), newShotLog(t)

	for _, tc := range []struct {
		name                 string
		vp                   viewport
		lang                 string
		ref                  string
		refuse               bool
		completing, complete string
	}{
		{"StreamOpensLate", desktop, "en", invoiceRef, false, "Completing", "Completed"},
		{"NoStream", phone, "de", vendorRef, true, "Wird abgeschlossen", "Abgeschlossen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ben := b.open(t, srv.URL, "ben", tc.vp, shots)
			ben.setLanguage(tc.lang)
			ben.signIn("acme", false)
			ben.openTab("available")
			id := ben.rowID(tc.ref)
			if id == "" {
				t.Fatalf("%s is not in ben's Available tab", tc.ref)
			}
			ben.navigate("/tasks/" + id)
			ben.submit("claim", testid("task-claim-form")+" button")
			ben.waitVisible(testid("task-form"))
			if tc.ref == invoiceRef {
				ben.typeInto(`[data-testid="task-form"] [name="iban"]`, validIBAN)
			}
			gate := ben.gateStream(tc.refuse)
			ben.submit("complete", testid("form-actions")+" button")
			ben.waitVisible(testid("banner-accepted"))
			status := `(document.querySelector('[data-testid="task-header"] [data-testid="status"]') || {}).textContent || ""`
			if got := strings.TrimSpace(eval[string](ben, status)); !strings.Contains(got, tc.completing) {
				t.Fatalf("status right after the submit: %q, want %q", got, tc.completing)
			}
			// Marks this document: a reload would lose it.
			eval[bool](ben, `(window.__sameDocument = true)`)
			ben.shot("completing")

			var acked time.Time
			select {
			case acked = <-rt.removed:
			case <-time.After(30 * time.Second):
				t.Fatal("the runtime never acknowledged the completion")
			}
			close(gate.release) // the stream opens only now, after the change
			ben.waitFor("the page to show "+tc.complete+" by itself",
				fmt.Sprintf(`(%s).includes(%q) && !document.querySelector('[data-testid="banner-accepted"]')`, status, tc.complete), 10*time.Second)
			if took := time.Since(acked); took > 2*time.Second {
				t.Errorf("the page showed %s %v after the runtime's acknowledgement, want within about a second", tc.complete, took.Round(10*time.Millisecond))
			}
			if !eval[bool](ben, `window.__sameDocument === true`) {
				t.Error("the page was reloaded; it should have updated in place")
			}
			ben.waitVisible(testid("banner-closed"))
			ben.shot("completed")
			ben.axe("task page (completed live)")
		})
	}
}

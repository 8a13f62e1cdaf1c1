package e2e

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// defaultChromium is where Debian's chromium package puts the browser.
const defaultChromium = "/usr/bin/chromium"

// chromiumPath is the browser to drive: USERTASKS_CHROMIUM, else Debian's. Without one the test
// is skipped with a message, except under CI=true, where it fails.
func chromiumPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("USERTASKS_CHROMIUM")
	if path == "" {
		path = defaultChromium
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Chromium is required under CI=true: %s is missing (install it with .ci/browser.sh)", path)
		}
		t.Skipf("skipped browser tests: %s is missing (install Debian chromium: bash .ci/browser.sh)", path)
	}
	return path
}

// Viewports of the flows.
type viewport struct {
	name          string
	width, height int64
	mobile        bool
}

var (
	desktop = viewport{name: "1366px", width: 1366, height: 768}
	phone   = viewport{name: "375px", width: 375, height: 812, mobile: true}
)

// newRig starts what every browser test needs: the web server in dev mode, one Chromium and the
// screenshot log (skipped without Chromium, except under CI=true).
func newRig(t *testing.T) (*server, *browser, *shotLog) {
	t.Helper()
	chromiumPath(t)
	return startServer(t), newBrowser(t), newShotLog(t)
}

// browser is one headless Chromium process; each user gets an isolated browser context in it
// (own cookies and storage), as two people on two machines would.
type browser struct {
	ctx context.Context
}

// newBrowser starts Debian Chromium headless with a fresh profile, the flags that keep it off
// the network, and ends it with the test.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(int(desktop.width), int(desktop.height)),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		cancel()
		cancelAlloc()
		t.Fatalf("start %s: %v", exe, err)
	}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	return &browser{ctx: ctx}
}

// page is one user's tab.
type page struct {
	t      *testing.T
	ctx    context.Context
	base   string
	user   string
	vp     viewport
	shots  *shotLog
	errors *syncBuffer // uncaught exceptions and console errors of the page
}

// open makes a tab in a new browser context for user at the viewport.
func (b *browser) open(t *testing.T, base, user string, vp viewport, shots *shotLog) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx, base: base, user: user, vp: vp, shots: shots, errors: &syncBuffer{}}
	var vopts []chromedp.EmulateViewportOption
	if vp.mobile {
		vopts = append(vopts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.width, vp.height, vopts...)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	go p.collectErrors()
	return p
}

// collectErrors records what the page's console reports as errors, and uncaught exceptions,
// for checkNoErrors.
func (p *page) collectErrors() {
	for m, err := range chromedp.Console(p.ctx) {
		if err != nil {
			return
		}
		// A page answered 404 or 422 on purpose shows up as a network error: not the page's fault.
		if m.IsException() || (m.Type == chromedp.ConsoleError && m.Source != "network") {
			fmt.Fprintf(p.errors, "%s\n", m.String())
		}
	}
}

// checkNoErrors fails on console errors (a CSP violation, a script error) seen so far.
func (p *page) checkNoErrors() {
	p.t.Helper()
	if s := strings.TrimSpace(p.errors.String()); s != "" {
		p.t.Fatalf("%s's page logged errors:\n%s", p.user, s)
	}
}

func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		loc, _ := chromedp.Run(p.ctx, chromedp.Location())
		p.t.Fatalf("%s (%s at %s): %v", what, p.user, loc, err)
	}
}

// navigate loads path and waits for the load.
func (p *page) navigate(path string) {
	p.t.Helper()
	p.do("navigate to "+path, chromedp.Navigate(p.base+path))
}

// openDisclosures opens the closed <details> around the element sel names, as a person opens a
// folded section (the Manage panel's forms) before using what is in it.
func (p *page) openDisclosures(sel string) {
	p.t.Helper()
	p.do("open the sections around "+sel, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
  const el = document.querySelector(%q);
  for (let d = el && el.closest("details:not([open])"); d; d = d.parentElement && d.parentElement.closest("details:not([open])")) {
    d.open = true;
  }
})()`, sel)))
}

// submit clicks a button that submits a form and waits for the next page.
func (p *page) submit(what string, sel string) {
	p.t.Helper()
	p.openDisclosures(sel)
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		loc, _ := chromedp.Run(p.ctx, chromedp.Location())
		p.t.Fatalf("%s (%s at %s): %v", what, p.user, loc, err)
	}
}

func (p *page) waitVisible(sel string) {
	p.t.Helper()
	p.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// eval runs JavaScript and decodes its result.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %.80q: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it holds.
func (p *page) waitFor(what, predicate string, timeout time.Duration) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](predicate, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		loc, _ := chromedp.Run(p.ctx, chromedp.Location())
		p.t.Fatalf("waiting for %s (%s at %s): %v", what, p.user, loc, err)
	}
}

// testid is the CSS selector of a data-testid hook.
func testid(id string) string { return `[data-testid="` + id + `"]` }

// ----- screenshots -----

// shotLog writes screenshots to artifacts/screenshots/ and remembers their paths.
type shotLog struct {
	mu    sync.Mutex
	dir   string
	seq   int
	paths []string
}

func newShotLog(t *testing.T) *shotLog {
	t.Helper()
	dir := filepath.Join(repoRoot, "artifacts", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &shotLog{dir: dir}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// shot saves a full-page PNG of the page as <test>-<n>-<user>-<step>.png and logs its path.
func (p *page) shot(step string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", step, err)
	}
	s := p.shots
	s.mu.Lock()
	s.seq++
	name := fmt.Sprintf("%s-%02d-%s-%s.png", p.t.Name(), s.seq, p.user, step)
	path := filepath.Join(s.dir, strings.Trim(unsafeName.ReplaceAllString(name, "_"), "_"))
	s.paths = append(s.paths, path)
	s.mu.Unlock()
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
	return path
}

// ----- accessibility -----

// axeVersion is the vendored axe-core (testdata/README.md).
const axeVersion = "4.14.1"

//go:embed testdata/axe.min.js
var axeSource string

// axeViolation is what the scan reports of one failed rule.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		HTML    string `json:"html"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// axeResult sums up one page's scan for the report.
type axeResult struct {
	Page       string
	Violations []axeViolation
}

// axe scans the page with axe-core (WCAG 2.0/2.1/2.2 A and AA rules and best practices) and
// fails the test on any serious or critical violation, naming the rules and nodes. Minor and
// moderate findings are logged.
func (p *page) axe(name string) axeResult {
	p.t.Helper()
	if !eval[bool](p, `typeof window.axe === "object"`) {
		ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Evaluate[*runtime.RemoteObject](axeSource))
		cancel()
		if err != nil {
			p.t.Fatalf("inject axe-core: %v", err)
		}
	}
	if v := eval[string](p, `axe.version`); v != axeVersion {
		p.t.Fatalf("axe-core %s injected, want %s", v, axeVersion)
	}
	raw := eval[string](p, `axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations))`)
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		p.t.Fatalf("axe result: %v", err)
	}
	res := axeResult{Page: name, Violations: vs}
	var blocking, other []string
	for _, v := range vs {
		line := describeViolation(v)
		if v.Impact == "serious" || v.Impact == "critical" {
			blocking = append(blocking, line)
		} else {
			other = append(other, line)
		}
	}
	if len(other) > 0 {
		p.t.Logf("axe %s (%s): minor/moderate findings:\n%s", name, p.vp.name, strings.Join(other, "\n"))
	}
	if len(blocking) > 0 {
		p.t.Errorf("axe %s (%s): serious or critical violations:\n%s", name, p.vp.name, strings.Join(blocking, "\n"))
	} else {
		p.t.Logf("axe %s (%s): no serious or critical violations (%d other)", name, p.vp.name, len(other))
	}
	return res
}

func describeViolation(v axeViolation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  [%s] %s: %s", v.Impact, v.ID, v.Help)
	for _, n := range v.Nodes {
		target, _ := json.Marshal(n.Target)
		fmt.Fprintf(&b, "\n    at %s: %s", target, strings.ReplaceAll(n.Summary, "\n", " "))
	}
	return b.String()
}

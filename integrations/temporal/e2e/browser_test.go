package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium is the browser to drive: USERTASKS_CHROMIUM, else Debian's. Without one the test is
// skipped with a message, except under CI=true, where it fails.
func chromium(t *testing.T) string {
	t.Helper()
	path := os.Getenv("USERTASKS_CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Chromium is required under CI=true: %s is missing (bash .ci/browser.sh)", path)
		}
		t.Skipf("skipped: %s is missing (install Debian chromium: bash .ci/browser.sh)", path)
	}
	return path
}

// TestDecisionThroughTheBrowser: Ben signs in to the inbox (dev mode's demo login), claims the
// workflow's task, fills in the form and approves; the workflow resumes with what he typed.
func TestDecisionThroughTheBrowser(t *testing.T) {
	exe := chromium(t)
	s := newStack(t, true)
	run := s.start(t, "browser/invoice 7", approvalInput{Title: "Approve invoice 7 in the browser", Amount: 700})
	task := s.ut.taskOf(t, "browser/invoice 7")

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1366, 768))...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	testid := func(id string) string { return fmt.Sprintf(`[data-testid=%q]`, id) }
	click := func(what, sel string) {
		t.Helper()
		if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	step("open the login page", chromedp.Navigate(s.ut.URL+"/login"))
	click("dev login as ben", `[data-testid="dev-user"][data-user-id="ben"][data-tenant="acme"] `+testid("dev-login"))
	step("signed in", chromedp.WaitVisible(chromedp.CSS(testid("user-name"))))
	step("open the task", chromedp.Navigate(s.ut.URL+"/tasks/"+task.ID))
	click("claim", testid("task-claim"))
	field := testid("task-form") + ` [name="comment"]`
	step("fill in the form", chromedp.WaitVisible(chromedp.CSS(field)), chromedp.SendKeys(chromedp.CSS(field), "approved in the browser"))
	click("approve", testid("action-approve"))
	step("accepted", chromedp.WaitVisible(chromedp.CSS(testid("banner-accepted"))))
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
	if err == nil {
		dir := filepath.Join(repoRoot(t), "artifacts", "screenshots")
		if os.MkdirAll(dir, 0o755) == nil {
			_ = os.WriteFile(filepath.Join(dir, "temporal-task-accepted.png"), shot, 0o644)
		}
	}

	r, err := result(t, run)
	if err != nil || r.Action != "approve" || r.Comment != "approved in the browser" || r.By != "ben" {
		t.Fatalf("the workflow resumed with %+v %v", r, err)
	}
	s.ut.waitStatus(t, task.ID, "Completed")
}

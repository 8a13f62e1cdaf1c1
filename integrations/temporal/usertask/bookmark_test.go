package usertask

import (
	"errors"
	"strings"
	"testing"
)

// Bookmark ids round-trip for the workflow ids real users have, and refuse what User Tasks
// would refuse or what could not be split again.
func TestBookmarkIDRoundTrip(t *testing.T) {
	const run = "0b6d2a8e-5c1f-4e5b-9d52-3f3c0f9a1b77"
	for _, wf := range []string{"invoice/2026/17", "inv?x=1#frag", "inv 42 ü", "a%2Fb", "..", "/leading", "trailing/", "Zürich"} {
		id, err := BookmarkID(wf, run, "approve.v2")
		if err != nil {
			t.Fatalf("%q: %v", wf, err)
		}
		gotWF, gotRun, gotStep, err := ParseBookmarkID(id)
		if err != nil || gotWF != wf || gotRun != run || gotStep != "approve.v2" {
			t.Fatalf("%q → %q → (%q, %q, %q, %v)", wf, id, gotWF, gotRun, gotStep, err)
		}
	}
}

func TestBookmarkIDRefusals(t *testing.T) {
	const run = "0b6d2a8e-5c1f-4e5b-9d52-3f3c0f9a1b77"
	for name, c := range map[string]struct{ wf, run, step string }{
		"empty step":        {"wf", run, ""},
		"step with slash":   {"wf", run, "a/b"},
		"step with space":   {"wf", run, "a b"},
		"step with unicode": {"wf", run, "prüfen"},
		"step too long":     {"wf", run, strings.Repeat("s", maxStep+1)},
		"run with slash":    {"wf", "a/b", "step"},
		"no workflow":       {"", run, "step"},
		"id too long":       {strings.Repeat("w", 100), run, "step"},
	} {
		if _, err := BookmarkID(c.wf, c.run, c.step); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, id := range []string{"", "noslash", "/run/step", "wf//step", "wf/run/", "wf/run/bad step"} {
		if _, _, _, err := ParseBookmarkID(id); !errors.Is(err, ErrBadBookmark) {
			t.Errorf("%q: %v, want ErrBadBookmark", id, err)
		}
	}
}

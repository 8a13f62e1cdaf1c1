package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// completionData is the stored completion data of a task as a map.
func (f *webFixture) completionData(t *testing.T, id string) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(f.current(t, id).Protected.CompletionData, &out); err != nil {
		t.Fatalf("completion data: %v", err)
	}
	return out
}

// keepHint checks that the masked field says leaving it empty keeps its value, and that the
// input is described by that sentence.
func keepHint(t *testing.T, p *webPage, key string) {
	t.Helper()
	hint := p.all("keep-" + key)
	if len(hint) != 1 {
		t.Fatalf("the masked field %s has %d keep hints, want 1", key, len(hint))
	}
	webWantContains(t, "hint", webText(hint[0]), "Leave it empty to keep the hidden value")
	id := webAttr(hint[0], "id")
	if id == "" || !slices.Contains(strings.Fields(webAttr(fieldInput(t, p, key), "aria-describedby")), id) {
		t.Fatalf("the input is not described by the hint (%q, describedby %q)", id, webAttr(fieldInput(t, p, key), "aria-describedby"))
	}
}

func TestTaskPageMaskedFieldKeepsItsValue(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")

	t.Run("LeftEmpty", func(t *testing.T) {
		task, p := claimed(t, f, b, webTaskOpts{})
		keepHint(t, p, "iban")
		refused := b.follow(b.submit(p, "task-form", url.Values{"amount": {"abc"}}, p.one("action-approve"))).wantStatus(http.StatusOK)
		keepHint(t, refused, "iban") // the hint survives the re-render
		if got := webAttr(fieldInput(t, refused, "iban"), "value"); got != "" {
			t.Fatalf("the re-render put %q into the masked input", got)
		}
		res := b.submit(refused, "task-form", url.Values{"amount": {"5"}}, refused.one("action-approve"))
		if res.status != http.StatusSeeOther {
			t.Fatalf("complete: %d\n%s", res.status, res.body)
		}
		if got := f.completionData(t, task.ID)["iban"]; got != "DE89370400440532013000" {
			t.Fatalf("the hidden value left empty became %v, want it kept", got)
		}
	})
	t.Run("Replaced", func(t *testing.T) {
		task, p := claimed(t, f, b, webTaskOpts{})
		res := b.submit(p, "task-form", url.Values{"iban": {"GB33BUKB20201555555555"}}, p.one("action-approve"))
		if res.status != http.StatusSeeOther {
			t.Fatalf("complete: %d\n%s", res.status, res.body)
		}
		if got := f.completionData(t, task.ID)["iban"]; got != "GB33BUKB20201555555555" {
			t.Fatalf("the typed value became %v", got)
		}
	})
	t.Run("German", func(t *testing.T) {
		de := f.signIn(t, "ann")
		de.lang = "de"
		_, p := claimed(t, f, de, webTaskOpts{})
		webWantContains(t, "hint", p.text("keep-iban"), "Leer lassen")
	})
}

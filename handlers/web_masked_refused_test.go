package handlers_test

import (
	"net/url"
	"testing"
)

// TestMaskedIndicatorSurvivesARefusedForm: after a validation error the masked field still
// shows that its stored value is hidden, together with the hint about keeping it — whether the
// person left the field empty or typed a replacement (kept in the input).
func TestMaskedIndicatorSurvivesARefusedForm(t *testing.T) {
	for name, typed := range map[string]string{"LeftEmpty": "", "Typed": "GB33BUKB20201555555555"} {
		t.Run(name, func(t *testing.T) {
			f := newWebFixture(t)
			b := f.signIn(t, "ann")
			task, p := claimed(t, f, b, webTaskOpts{})
			p.one("masked-iban")
			refused := b.follow(refusedComplete(t, b, p, task.ID, url.Values{"amount": {"abc"}, "iban": {typed}}))
			if !refused.has("masked-iban") {
				t.Fatal("the hidden-value indicator is gone after the validation error")
			}
			keepHint(t, refused, "iban")
			if got := webAttr(fieldInput(t, refused, "iban"), "value"); got != typed {
				t.Fatalf("the masked input holds %q, want what was typed (%q)", got, typed)
			}
		})
	}
}

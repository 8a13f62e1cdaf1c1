package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"usertasks/models"
)

// formatSchema has a pattern field with a format hint and one without.
const formatSchema = `{"type":"object","properties":{
 "iban":{"type":"string","pattern":"^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$","x-ui":{"label":"IBAN","order":1,
   "formatHint":"two letters, two digits, then 10 to 30 letters or digits"}},
 "code":{"type":"string","pattern":"^[A-Z]+$","x-ui":{"label":"Code","order":2}}}}`

func TestTaskPageFormatHint(t *testing.T) {
	f := newWebFixture(t)
	withFormat := func(p *models.Projection) {
		p.Form, p.Data = &models.PinnedForm{Schema: json.RawMessage(formatSchema)}, nil
	}
	for _, tc := range []struct{ lang, message string }{
		{"", "IBAN must have the format: two letters, two digits, then 10 to 30 letters or digits."},
		{"de", "IBAN muss dieses Format haben: two letters, two digits, then 10 to 30 letters or digits."},
	} {
		t.Run(webFirstOr(tc.lang, "en"), func(t *testing.T) {
			b := f.signIn(t, "ann")
			b.lang = tc.lang
			_, p := claimed(t, f, b, webTaskOpts{mutate: withFormat})
			hint := p.one("format-iban")
			webWantContains(t, "format hint", webText(hint), "two letters, two digits")
			if !slices.Contains(strings.Fields(webAttr(fieldInput(t, p, "iban"), "aria-describedby")), webAttr(hint, "id")) {
				t.Fatal("the input is not described by its format hint")
			}
			if p.has("format-code") {
				t.Fatal("a field without a hint shows one")
			}
			res := b.follow(b.submit(p, "task-form", url.Values{"iban": {"not an iban"}, "code": {"abc"}}, p.one("action-approve"))).
				wantStatus(http.StatusOK)
			if got := res.text("error-iban"); got != tc.message {
				t.Fatalf("iban message %q, want %q", got, tc.message)
			}
			if strings.Contains(res.text("error-code"), "format:") {
				t.Fatalf("a field without a hint claims one: %q", res.text("error-code"))
			}
			res.one("format-iban") // the hint stays after the refusal
		})
	}
}

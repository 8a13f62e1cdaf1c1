package handlers_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestInboxRefusesControlCharactersKindly: a search or workflow filter holding a control
// character or a bidirectional override is refused by the service; the inbox shows its
// invalid-filters state with the filter marked (422), not the error page or a list.
func TestInboxRefusesControlCharactersKindly(t *testing.T) {
	f := newWebFixture(t)
	f.seed(t, webTaskOpts{assignee: "ann"})
	for _, tt := range []struct{ query, input string }{
		{"q=%00", "q"},
		{"q=inv%C2%85oice", "q"},
		{"q=%E2%80%AEinvoice", "q"},
		{"workflow=invoice%00", "workflow"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			p := f.signIn(t, "ann").get("/inbox?" + tt.query).wantStatus(http.StatusUnprocessableEntity)
			p.one("filters-invalid")
			if p.has("error-state") || p.has("task-row") {
				t.Fatal("the inbox shows the error state or rows for refused filters")
			}
			if tt.input == "workflow" && !strings.Contains(p.body, "field--invalid") {
				t.Error("the workflow filter is not marked")
			}
		})
	}
	f.signIn(t, "ann").get("/inbox?q=invoice").wantStatus(http.StatusOK)
}

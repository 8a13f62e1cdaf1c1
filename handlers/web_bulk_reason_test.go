package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"usertasks/models"
)

// TestWebBulkReason checks that the bulk reason takes as much text as a reason may hold
// (models.MaxReasonLength bytes), not the 255 characters of a one-line text input.
func TestWebBulkReason(t *testing.T) {
	f := newWebFixture(t)
	task := f.seed(t, webTaskOpts{title: "Old order"})
	other := f.seed(t, webTaskOpts{title: "Other order"})
	boss := f.signIn(t, "boss")
	page := boss.get("/inbox?tab=all").wantStatus(http.StatusOK)
	field := page.one("bulk-reason")
	if field.Data != "textarea" || webAttr(field, "maxlength") != strconv.Itoa(models.MaxReasonLength) || webAttr(field, "name") != "reason" {
		t.Fatalf("bulk reason is <%s maxlength=%q>", field.Data, webAttr(field, "maxlength"))
	}
	checks := bulkChecks(page)

	t.Run("OK_FullLength", func(t *testing.T) {
		reason := strings.Repeat("r", models.MaxReasonLength-2) + "ü" // the limit counts bytes
		res := boss.submit(page, "bulk-form", url.Values{"action": {"cancel"}, "reason": {reason}, "task": {checks[task.ID]}}, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("a reason of %d characters: %d\n%s", models.MaxReasonLength, res.status, res.body)
		}
		if got := bulkOutcomes(boss.follow(res)); len(got) != 1 || !strings.HasSuffix(got[0], ": done") {
			t.Fatalf("outcomes %v", got)
		}
		if got := f.current(t, task.ID).Status; got != models.StatusCancelling {
			t.Fatalf("status %s, want cancelling", got)
		}
	})
	t.Run("ErrValidation_TooLong", func(t *testing.T) {
		reason := strings.Repeat("r", models.MaxReasonLength+1)
		res := boss.submit(page, "bulk-form", url.Values{"action": {"cancel"}, "reason": {reason}, "task": {checks[other.ID]}}, nil).
			wantStatus(http.StatusUnprocessableEntity)
		res.one("error-reason")
		if got := webText(res.one("bulk-reason")); got != reason {
			t.Fatalf("the refused form lost the reason (%d characters back)", len(got))
		}
		if got := f.current(t, other.ID).Revision; got != 1 {
			t.Fatal("a refused form acted")
		}
	})
}

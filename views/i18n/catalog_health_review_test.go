package i18n

import (
	"reflect"
	"testing"

	"usertasks/models"
)

// TestHealthReviewComplete: every language explains every health code (what it means, why it
// happened), says what fixes it, and names the button of every remedy that has one (waiting and
// fixing a delivery channel have none).
func TestHealthReviewComplete(t *testing.T) {
	for _, c := range Supported {
		t.Run(c.Lang, func(t *testing.T) {
			h := c.HealthReview
			v := reflect.ValueOf(h)
			for i := range v.NumField() {
				if f := v.Field(i); f.Kind() == reflect.String && f.String() == "" {
					t.Errorf("HealthReview.%s is empty", v.Type().Field(i).Name)
				}
			}
			for _, code := range models.HealthCodes {
				if h.Meanings[code] == "" || h.Causes[code] == "" {
					t.Errorf("health code %q has no meaning or cause", code)
				}
				remedy := models.RemedyFor(code)
				if h.Remedies[remedy] == "" {
					t.Errorf("health code %q: remedy %q has no sentence", code, remedy)
				}
				if remedy != models.RemedyWait && remedy != models.RemedyCheckDelivery && h.Buttons[remedy] == "" {
					t.Errorf("health code %q: remedy %q has no button", code, remedy)
				}
			}
			if len(h.Meanings) != len(models.HealthCodes) || len(h.Causes) != len(models.HealthCodes) {
				t.Errorf("%d meanings and %d causes for %d codes", len(h.Meanings), len(h.Causes), len(models.HealthCodes))
			}
			if got := h.Meaning("some-future-code"); got != h.UnknownMeaning {
				t.Errorf("an unknown code means %q, want the fallback", got)
			}
			if got := h.Cause("some-future-code"); got != h.UnknownCause {
				t.Errorf("an unknown code's cause is %q, want the fallback", got)
			}
		})
	}
}

// TestHealthCodesListed: models.HealthCodes holds every health code constant of models, so
// filters and explanations cover each one.
func TestHealthCodesListed(t *testing.T) {
	codes := modelConstants(t, "Health", "")
	if len(codes) != len(models.HealthCodes) {
		t.Fatalf("models declares %d health codes %v, HealthCodes lists %d", len(codes), codes, len(models.HealthCodes))
	}
	for _, code := range codes {
		if !models.KnownHealthCode(code) {
			t.Errorf("health code %q is missing from models.HealthCodes", code)
		}
	}
}

package i18n

import (
	"testing"

	"usertasks/models"
)

// TestLabelsTextComplete walks the nested Labels text, which the catalogue test does not.
func TestLabelsTextComplete(t *testing.T) {
	nestedTextComplete(t, "Labels", func(c *Catalog) any { return c.Labels })
}

// TestFormFailuresSaid: every class of a failed form resolution is said in every language.
func TestFormFailuresSaid(t *testing.T) {
	for _, c := range Supported {
		for _, f := range []models.FormFailure{models.FormProviderUnknown, models.FormNotFound, models.FormInvalid, models.FormUnavailable} {
			if c.Labels.FormFailures[f] == "" {
				t.Errorf("%s: the form failure %s is not said", c.Lang, f)
			}
		}
	}
}

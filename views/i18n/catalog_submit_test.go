package i18n

import (
	"strings"
	"testing"
)

// TestSubmitTexts: both languages say who completed a task, with one place for the name.
func TestSubmitTexts(t *testing.T) {
	for _, c := range Supported {
		if got := c.Format(c.Submit.CompletedBy, "Ann"); strings.Count(c.Submit.CompletedBy, "%s") != 1 || !strings.Contains(got, "Ann") {
			t.Errorf("%s CompletedBy %q", c.Lang, c.Submit.CompletedBy)
		}
	}
}

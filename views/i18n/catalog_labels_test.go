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

// TestTaskTypeNames: known types by name in each language, others readable, never empty.
func TestTaskTypeNames(t *testing.T) {
	for code, want := range map[string]string{"approval": "Approval", "Approval": "Approval", "credit-check": "Credit check", "on_call_handover": "On call handover", "über-prüfung": "Über prüfung", "x": "X"} {
		if got := english.TaskType(code); got != want {
			t.Errorf("%q → %q, want %q", code, got, want)
		}
	}
	if got := german.TaskType("approval"); got != "Freigabe" {
		t.Errorf("German approval: %q", got)
	}
	for _, c := range Supported {
		if len(c.Labels.TaskTypes) != len(english.Labels.TaskTypes) {
			t.Errorf("%s names %d task types, English %d", c.Lang, len(c.Labels.TaskTypes), len(english.Labels.TaskTypes))
		}
	}
}

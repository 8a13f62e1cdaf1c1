package views

import (
	"testing"

	"usertasks/views/i18n"
)

// TestBulkActionsNamed: every action the bulk form offers has a name in every language.
func TestBulkActionsNamed(t *testing.T) {
	for _, c := range i18n.Supported {
		for _, a := range BulkActions {
			if c.Bulk.Actions[a] == "" {
				t.Errorf("%s: bulk action %q has no name", c.Lang, a)
			}
		}
	}
}

package i18n

import "testing"

// TestPoliciesTextComplete: every text of the default deadline pages in every language, with
// the placeholders of the English one.
func TestPoliciesTextComplete(t *testing.T) {
	nestedTextComplete(t, "Policies", func(c *Catalog) any { return c.Policies })
}

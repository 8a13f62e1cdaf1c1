package i18n

import "testing"

// TestDelegationTextComplete walks the nested Delegation text, which the catalogue test does
// not: every field in every language, with the English number of %s.
func TestDelegationTextComplete(t *testing.T) {
	nestedTextComplete(t, "Delegation", func(c *Catalog) any { return c.Delegation })
}

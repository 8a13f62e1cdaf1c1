package i18n

import "testing"

// TestPeopleTextComplete walks the nested People text, which the catalogue test does not.
func TestPeopleTextComplete(t *testing.T) {
	nestedTextComplete(t, "People", func(c *Catalog) any { return c.People })
}

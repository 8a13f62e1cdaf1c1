package i18n

import "testing"

// TestLabelsTextComplete walks the nested Labels text, which the catalogue test does not.
func TestLabelsTextComplete(t *testing.T) {
	nestedTextComplete(t, "Labels", func(c *Catalog) any { return c.Labels })
}

package i18n

import "testing"

// TestTotals: exact totals read as before, capped ones with the language's grouping and a plus.
func TestTotals(t *testing.T) {
	for _, c := range []struct {
		cat            *Catalog
		n              int
		capped         bool
		number, phrase string
	}{
		{english, 1000, true, "1,000+", "1,000+ tasks"},
		{german, 1000, true, "1.000+", "1.000+ Aufgaben"},
		{english, 999, false, "999", "999 tasks"},
		{english, 1, false, "1", "1 task"},
		{german, 1, false, "1", "1 Aufgabe"},
		{english, 1234567, false, "1,234,567", "1234567 tasks"},
		{german, 10000, true, "10.000+", "10.000+ Aufgaben"},
		{english, 0, false, "0", "0 tasks"},
	} {
		if got := c.cat.TotalNumber(c.n, c.capped); got != c.number {
			t.Errorf("%s TotalNumber(%d, %v) = %q, want %q", c.cat.Lang, c.n, c.capped, got, c.number)
		}
		if got := c.cat.TasksTotal(c.n, c.capped); got != c.phrase {
			t.Errorf("%s TasksTotal(%d, %v) = %q, want %q", c.cat.Lang, c.n, c.capped, got, c.phrase)
		}
	}
	if got := english.Number(-1234); got != "-1,234" {
		t.Errorf("Number(-1234) = %q", got)
	}
}

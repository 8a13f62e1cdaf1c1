package i18n

import "strconv"

// TotalText is how a list total reads, exact or capped (models.TotalCap: a total counts at
// most a thousand tasks and then reads "1,000+").
type TotalText struct {
	// Thousands separates groups of three digits: "," in English, "." in German.
	Thousands string
	// Decimal separates a number's fraction: "." in English, "," in German ("1,5 MiB").
	Decimal string
	// AtLeast is a capped number of tasks: "%s+ tasks" with the grouped number.
	AtLeast string
}

// Number renders n with the language's thousands separator ("12,345").
func (c *Catalog) Number(n int) string {
	digits := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, digits = "-", digits[1:]
	}
	out := ""
	for len(digits) > 3 {
		out = c.Total.Thousands + digits[len(digits)-3:] + out
		digits = digits[:len(digits)-3]
	}
	return neg + digits + out
}

// TotalNumber renders a list total as a bare number: "1,000+" when capped.
func (c *Catalog) TotalNumber(n int, capped bool) string {
	if capped {
		return c.Number(n) + "+"
	}
	return c.Number(n)
}

// TasksTotal renders a list total as a phrase: "3 tasks", or "1,000+ tasks" when capped.
func (c *Catalog) TasksTotal(n int, capped bool) string {
	if capped {
		return c.Format(c.Total.AtLeast, c.Number(n))
	}
	return c.Tasks(n)
}

package handlers

import (
	"strings"

	"usertasks/models"
)

// echoText is refused user input as a page shows it again (the form re-rendered with what was
// typed): cut to n bytes, and without the characters models.TextProblem refuses in one line of
// text — controls, bidirectional overrides and isolates, invalid UTF-8 — so a refusal never
// renders them raw.
func echoText(s string, n int) string {
	s = strings.ToValidUTF8(models.Truncate(s, n), "")
	if models.TextProblem(s, models.Label) == "" {
		return s
	}
	return strings.Map(func(r rune) rune {
		if models.TextProblem(string(r), models.Label) != "" {
			return -1
		}
		return r
	}, s)
}

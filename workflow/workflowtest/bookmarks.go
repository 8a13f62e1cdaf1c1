// Package workflowtest holds test data that the tests of workflow (the HTTP runtime client)
// and of workers (reconciliation against that client and the loopback) share.
package workflowtest

import "usertasks/models"

// HostileBookmarkID is a bookmark id and the one escaped path segment it must travel as.
type HostileBookmarkID struct{ ID, Segment string }

// HostileBookmarkIDs are bookmark ids a runtime may use, each with the one path segment it
// must be sent as. Everything but RFC 3986's unreserved characters is escaped, and "." and
// ".." as a whole segment too, so no proxy or router collapses them.
var HostileBookmarkIDs = []HostileBookmarkID{
	{"proc/1/step", "proc%2F1%2Fstep"},
	{"a?b=c", "a%3Fb%3Dc"},
	{"x#frag", "x%23frag"},
	{"100%", "100%25"},
	{"%2F", "%252F"},
	{"..", "%2E%2E"},
	{".", "%2E"},
	{"a..b", "a..b"},
	{"...", "..."},
	{"with space", "with%20space"},
	{"Zürich", "Z%C3%BCrich"},
	{"日本", "%E6%97%A5%E6%9C%AC"},
	{"a+b;c,d:e@f", "a%2Bb%3Bc%2Cd%3Ae%40f"},
	{"tab\tnl\n", "tab%09nl%0A"},
	{"~_-.ok", "~_-.ok"},
	{`back\slash"quote'`, "back%5Cslash%22quote%27"},
}

// ProjectableBookmarkIDs are the hostile ids a projection accepts: control characters are
// refused there (422), so only the client itself ever sees them.
func ProjectableBookmarkIDs() []HostileBookmarkID {
	var out []HostileBookmarkID
	for _, c := range HostileBookmarkIDs {
		if models.TextProblem(c.ID, models.Identifier) == "" {
			out = append(out, c)
		}
	}
	return out
}

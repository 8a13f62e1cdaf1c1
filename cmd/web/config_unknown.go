package main

import (
	"log/slog"
	"slices"
	"strings"
)

// testVariables are read by the test suites, not the server; a shell that runs both gets no
// warning about them.
var testVariables = []string{"USERTASKS_TEST_POSTGRES_URL", "USERTASKS_TEST_MYSQL_URL", "USERTASKS_CHROMIUM"}

// warnUnknown logs one warning per USERTASKS_* variable that no setting reads (a typo is
// otherwise silently ignored and its default used), with the nearest known name when one is
// close. It logs names only, never values: they may be secrets.
func warnUnknown(env environment, log *slog.Logger) {
	known := knownVariables()
	var unknown []string
	for name := range env {
		if strings.HasPrefix(name, "USERTASKS_") && !slices.Contains(known, name) && !slices.Contains(testVariables, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		if near, ok := nearest(name, known); ok {
			log.Warn(name+" is not a configuration variable and is ignored; did you mean "+near+"?", "variable", name, "suggestion", near)
			continue
		}
		log.Warn(name+" is not a configuration variable and is ignored", "variable", name)
	}
}

// nearest is the known name closest to name by edit distance, when it is close enough to be
// a typo: at most two edits, or a quarter of the part after USERTASKS_ for long names.
func nearest(name string, known []string) (string, bool) {
	best, bestDist := "", -1
	for _, k := range known {
		if d := editDistance(name, k); bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	limit := max(2, len(strings.TrimPrefix(name, "USERTASKS_"))/4)
	return best, bestDist >= 0 && bestDist <= limit
}

// editDistance is the Levenshtein distance between a and b (bytes; the names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

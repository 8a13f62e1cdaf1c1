package formsource

import (
	"strconv"
	"strings"
	"unicode"

	"usertasks/models"
)

// LatestVersion asks a form provider for its highest version.
const LatestVersion = "latest"

// Limits of a form reference. The reference lives inside the protected blob; these only keep
// it small and make the key safe as a path segment for file-backed providers.
const (
	MaxKeyLength     = 256
	MaxVersionLength = 20
)

// ValidVersion reports whether v may be asked of a form provider: empty or `latest` (the
// highest), or a version name. Which names exist is the provider's business; the built-in file
// provider numbers its versions.
func ValidVersion(v string) bool {
	return len(v) <= MaxVersionLength && !strings.ContainsFunc(v, unicode.IsSpace) && models.TextProblem(v, models.Identifier) == ""
}

// parseVersion reads a numbered version: a positive decimal integer.
func parseVersion(v string) (int, bool) {
	if len(v) == 0 || len(v) > MaxVersionLength {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || strings.HasPrefix(v, "+") {
		return 0, false
	}
	return n, true
}

package models

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TextKind says which characters a text field admits. Every kind refuses invalid UTF-8, the C0
// and C1 control characters and the bidirectional embeddings, overrides and isolates (U+202A–
// U+202E, U+2066–U+2069): they hide or reorder text in pages, logs and terminals ("Trojan
// Source"), break SQL drivers (NUL) and make equal-looking identifiers differ.
//
// Protected free content — instructions (Markdown) and task or completion data — is not text in
// this sense and is not checked.
type TextKind int

const (
	// Identifier is machine text compared exactly: participant ids and providers, workflow and
	// bookmark ids, references, task types, tags, action keys, operation ids, list filters. The
	// invisible characters are refused too — the direction marks (LRM, RLM, ALM), the zero-width
	// space, non-joiner and joiner, the word joiner, the byte order mark (U+200B–U+200D, U+2060,
	// U+FEFF) and the line and paragraph separators (U+2028, U+2029): in an identifier they only
	// make two equal-looking values differ.
	Identifier TextKind = iota
	// Label is one line of human text: titles, names, display names, labels. Direction marks and
	// the zero-width characters are allowed: right-to-left scripts need the marks to show mixed
	// text correctly (and unlike overrides and isolates they reorder nothing beyond their
	// neighbours), Persian and Indic scripts need the joiners, emoji sequences the ZWJ. The line
	// and paragraph separators are refused like a line feed.
	Label
	// Prose is human text that may span lines: summaries and reasons. It admits what Label does,
	// plus tab, line feed, carriage return and the line and paragraph separators.
	Prose
)

// FieldProblem returns why s is not acceptable as a text field of kind held in limit bytes, or
// "" when it is: a required field must not be blank, no field may be longer than its limit
// (column sizes are bytes in every supported dialect), and then TextProblem.
func FieldProblem(s string, limit int, required bool, kind TextKind) string {
	switch {
	case required && strings.TrimSpace(s) == "":
		return "is required"
	case len(s) > limit:
		return fmt.Sprintf("must be at most %d bytes", limit)
	}
	return TextProblem(s, kind)
}

// Truncate shortens s to at most n bytes, the unit of every field limit, without splitting a
// character.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TextProblem returns why s is not acceptable text of kind, as a field error message, or ""
// when it is. It is the one rule every identifier and short text goes through: projection and
// command validation and the list filters.
func TextProblem(s string, kind TextKind) string {
	if !utf8.ValidString(s) {
		return "must be valid UTF-8"
	}
	for _, r := range s {
		switch {
		case kind == Prose && (r == '\t' || r == '\n' || r == '\r'):
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			return "must not contain control characters"
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return "must not contain bidirectional formatting characters"
		case kind == Identifier && (r == 0x200e || r == 0x200f || r == 0x061c):
			return "must not contain bidirectional formatting characters"
		case kind == Identifier && (r == 0x200b || r == 0x200c || r == 0x200d || r == 0x2060 || r == 0xfeff):
			return "must not contain invisible characters"
		case kind != Prose && (r == 0x2028 || r == 0x2029):
			return "must not contain line or paragraph separators"
		}
	}
	return ""
}

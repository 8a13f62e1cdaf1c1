package models

import (
	"fmt"
	"testing"
)

func TestTextProblem(t *testing.T) {
	kinds := map[TextKind]string{Identifier: "Identifier", Label: "Label", Prose: "Prose"}
	refusedEverywhere := []rune{0x00, 0x01, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9f,
		0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}
	for kind, name := range kinds {
		for _, r := range refusedEverywhere {
			for _, s := range []string{string(r), "a" + string(r), string(r) + "b", "a" + string(r) + "b"} {
				t.Run(fmt.Sprintf("Refused_%s_U+%04X", name, r), func(t *testing.T) {
					if TextProblem(s, kind) == "" {
						t.Fatalf("%q accepted as %s", s, name)
					}
				})
			}
		}
		for _, s := range []string{"\xff", "ab\xe2\x80", "\xc0\xaf", "\xed\xa0\x80", "ok\x80"} {
			t.Run(fmt.Sprintf("InvalidUTF8_%s_%q", name, s), func(t *testing.T) {
				if got := TextProblem(s, kind); got != "must be valid UTF-8" {
					t.Fatalf("%q: %q, want the UTF-8 message", s, got)
				}
			})
		}
		for _, s := range []string{"", "plain", "Grüße aus Köln", "請求書 42", "€ 1,200", "no\u00a0break", "🙂 ok", "a%_[b]", "../x?y#z"} {
			t.Run(fmt.Sprintf("Accepted_%s_%q", name, s), func(t *testing.T) {
				if got := TextProblem(s, kind); got != "" {
					t.Fatalf("%q refused as %s: %s", s, name, got)
				}
			})
		}
	}
	tests := []struct {
		s    string
		kind TextKind
		ok   bool
	}{
		{"line\nbreak", Prose, true}, {"tab\there", Prose, true}, {"crlf\r\n", Prose, true},
		{"line\nbreak", Label, false}, {"tab\there", Label, false}, {"cr\r", Identifier, false},
		{"שלום\u200f 42", Label, true}, {"مرحبا\u061c", Prose, true}, {"a\u200eb", Label, true},
		{"bob\u200e", Identifier, false}, {"bob\u200f", Identifier, false}, {"bob\u061c", Identifier, false},
		// Zero-width joiners are part of writing: Persian needs ZWNJ, emoji sequences ZWJ.
		{"می\u200cخواهم", Label, true}, {"👩\u200d💻", Prose, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s_%q", kinds[tt.kind], tt.s), func(t *testing.T) {
			if got := TextProblem(tt.s, tt.kind); (got == "") != tt.ok {
				t.Fatalf("TextProblem(%q) = %q, want accepted %v", tt.s, got, tt.ok)
			}
		})
	}
}

// TestTextProblemInvisible: the zero-width characters and the Unicode line and paragraph
// separators make two equal-looking identifiers differ (or split one across lines), so an
// identifier refuses each of them as it refuses the direction marks; prose keeps them all, and a
// label (one line) keeps the zero-width ones but not the separators.
func TestTextProblemInvisible(t *testing.T) {
	zeroWidth := []rune{0x200b, 0x200c, 0x200d, 0x2060, 0xfeff}
	separators := []rune{0x2028, 0x2029}
	for _, r := range append(append([]rune{}, zeroWidth...), separators...) {
		for _, s := range []string{string(r), "bob" + string(r), string(r) + "bob", "b" + string(r) + "ob"} {
			t.Run(fmt.Sprintf("RefusedInIdentifier_U+%04X_%q", r, s), func(t *testing.T) {
				if got := TextProblem(s, Identifier); got == "" {
					t.Fatalf("%q accepted as an identifier", s)
				}
			})
			t.Run(fmt.Sprintf("KeptInProse_U+%04X_%q", r, s), func(t *testing.T) {
				if got := TextProblem(s, Prose); got != "" {
					t.Fatalf("%q refused as prose: %s", s, got)
				}
			})
		}
	}
	for _, r := range zeroWidth {
		t.Run(fmt.Sprintf("KeptInLabel_U+%04X", r), func(t *testing.T) {
			if got := TextProblem("a"+string(r)+"b", Label); got != "" {
				t.Fatalf("refused as a label: %s", got)
			}
		})
	}
	for _, r := range separators {
		t.Run(fmt.Sprintf("RefusedInLabel_U+%04X", r), func(t *testing.T) {
			if got := TextProblem("a"+string(r)+"b", Label); got == "" {
				t.Fatal("a line separator accepted in one line of text")
			}
		})
	}
}

func TestTaskFilterValidate(t *testing.T) {
	tests := []struct {
		name  string
		f     TaskFilter
		field string // "" when valid
	}{
		{"OK", TaskFilter{Search: "Grüße 100%_", Tag: "q1", Reference: "INV-1", TaskType: "approval", WorkflowDefinitionID: "wf", WorkflowInstanceID: "wi"}, ""},
		{"OK_DirectionMarkInSearch", TaskFilter{Search: "שלום\u200f"}, ""},
		{"SearchNUL", TaskFilter{Search: "\x00"}, "search"},
		{"SearchNEL", TaskFilter{Search: "a\u0085b"}, "search"},
		{"SearchOverride", TaskFilter{Search: "\u202e"}, "search"},
		{"SearchNewline", TaskFilter{Search: "a\nb"}, "search"},
		{"SearchInvalidUTF8", TaskFilter{Search: "caf\xff"}, "search"},
		{"Tag", TaskFilter{Tag: "q\x001"}, "tag"},
		{"ReferenceMark", TaskFilter{Reference: "INV\u200e"}, "reference"},
		{"TaskType", TaskFilter{TaskType: "\x1b[0m"}, "taskType"},
		{"WorkflowDefinitionID", TaskFilter{WorkflowDefinitionID: "wf\u2066"}, "workflowDefinitionId"},
		{"WorkflowInstanceID", TaskFilter{WorkflowInstanceID: "\u009b"}, "workflowInstanceId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.f.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("got %v, want valid", err)
				}
				return
			}
			wantCode(t, err, CodeValidationFailed)
			wantField(t, err, tt.field)
		})
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		name, s string
		n       int
		want    string
	}{
		{"Short", "Köln", 10, "Köln"},
		{"Exact", "Köln", 5, "Köln"},
		{"ASCII", "abcdef", 3, "abc"},
		{"WholeCharacterKept", "Köln", 3, "Kö"},
		{"SplitCharacterDropped", "Köln", 2, "K"},
		{"FourByteCharacter", "a🙂b", 4, "a"},
		{"Zero", "abc", 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Truncate(c.s, c.n); got != c.want {
				t.Fatalf("Truncate(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
			}
		})
	}
}

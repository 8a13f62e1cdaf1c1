package models

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCommentTextProblem(t *testing.T) {
	for name, tc := range map[string]struct {
		text string
		ok   bool
	}{
		"OK":                         {"Is this the right IBAN?", true},
		"TabAndNewlinesKept":         {"line one\n\tline two\r\n", true},
		"NonASCII":                   {"Grüße, 日本語, مرحبا \u200f", true},
		"ExactlyTheLimit":            {strings.Repeat("ä", MaxCommentLength), true},
		"LimitAfterTrimming":         {"  \n" + strings.Repeat("x", MaxCommentLength) + "\n  ", true},
		"Empty":                      {"", false},
		"Blank":                      {" \t\n\r ", false},
		"OverTheLimit":               {strings.Repeat("ä", MaxCommentLength+1), false},
		"NUL":                        {"a\x00b", false},
		"Escape":                     {"a\x1b[31mb", false},
		"C1":                         {"a\u0085b", false},
		"InvalidUTF8":                {"a\xffb", false},
		"BidiOverride":               {"a\u202eb", false},
		"OnlyInvisibleButNotBlanked": {"\u200b", true}, // a zero-width space is prose, as in a Label
	} {
		t.Run(name, func(t *testing.T) {
			got := CommentTextProblem(tc.text)
			if (got == "") != tc.ok {
				t.Fatalf("CommentTextProblem = %q, want ok=%v", got, tc.ok)
			}
		})
	}
}

func TestParseMentions(t *testing.T) {
	for name, tc := range map[string]struct {
		text string
		want []string
	}{
		"One":              {"@ann please check", []string{"ann"}},
		"InSentence":       {"Ask @ann.", []string{"ann"}},
		"Several":          {"@ann and @bob, also (@carl) and @ann again", []string{"ann", "bob", "carl"}},
		"NonASCII":         {"@jürgen und @日本 und @محمد", []string{"jürgen", "日本", "محمد"}},
		"AtTheEnd":         {"hello @", nil},
		"AtAlone":          {"@ @ @", nil},
		"Email":            {"mail ann@example.com or bob.smith@example.org", nil},
		"DoubleAt":         {"@@ann", nil},
		"URL":              {"see https://example.com/@ann", nil},
		"OIDCSubject":      {"@auth0|42 and @a.b_c-d+e", []string{"auth0|42", "a.b_c-d+e"}},
		"TrailingDots":     {"@ann... @bob-", []string{"ann", "bob"}},
		"AfterNewline":     {"x\n@ann", []string{"ann"}},
		"Adjacent":         {"@a@b", []string{"a"}},
		"PunctuationStops": {"@ann/@bob?#x", []string{"ann"}},
		"TooLong":          {"@" + strings.Repeat("a", MaxParticipantIDLength+1), nil},
		"LongestID":        {"@" + strings.Repeat("a", MaxParticipantIDLength), []string{strings.Repeat("a", MaxParticipantIDLength)}},
		"InvalidUTF8":      {"@ann\xff@bob", []string{"ann", "bob"}}, // refused text anyway; the byte only separates
	} {
		t.Run(name, func(t *testing.T) {
			if got := ParseMentions(tc.text); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseMentions(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestResolveMentions(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusAssigned, assignee: &ParticipantRef{Tenant: testTenant, Provider: "idp", Type: UserParticipant, ID: "zoe"}})
	author := ParticipantRef{Tenant: testTenant, Provider: "sso", Type: UserParticipant, ID: "me"}
	got := ResolveMentions(task, author, []string{"zoe", "alice", "stranger", "bad\u200bid"})
	want := []ParticipantRef{
		{Tenant: testTenant, Provider: "idp", Type: UserParticipant, ID: "zoe"},
		{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: "alice"},
		{Tenant: testTenant, Provider: "sso", Type: UserParticipant, ID: "stranger"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ResolveMentions = %+v, want %+v", got, want)
	}
}

func TestAddComment(t *testing.T) {
	task := newTask(t, nil)
	t.Run("OK", func(t *testing.T) {
		c, ev, err := AddComment(task, person("alice"), "c-1", "  hi @bob  ", 3, now)
		if err != nil {
			t.Fatal(err)
		}
		if c.Text != "hi @bob" || c.ID != "c-1" || c.TaskID != task.ID || c.Author.ID != "alice" || c.Author.DisplayName != "Alice" || !c.CreatedAt.Equal(now) {
			t.Fatalf("comment %+v", c)
		}
		if len(c.Mentions) != 1 || c.Mentions[0].ID != "bob" {
			t.Fatalf("mentions %+v", c.Mentions)
		}
		if ev.Type != EventCommentAdded || ev.Revision != task.Revision || ev.Seq != task.LastEventSeq+1 {
			t.Fatalf("event %+v", ev)
		}
		var meta map[string]any
		if err := json.Unmarshal(ev.Metadata, &meta); err != nil || len(meta) != 1 || meta["comment"] != "c-1" {
			t.Fatalf("metadata %s, want the comment id only", ev.Metadata)
		}
		if strings.Contains(string(ev.Metadata), "hi") || ev.Reason != "" {
			t.Fatalf("the event carries the text: %+v", ev)
		}
	})
	t.Run("ErrValidationText", func(t *testing.T) {
		for _, text := range []string{"", "   ", "a\x00", "\xff", strings.Repeat("x", MaxCommentLength+1)} {
			_, _, err := AddComment(task, person("alice"), "c-1", text, 0, now)
			requireFieldError(t, err, "text")
		}
	})
	t.Run("ErrLimit", func(t *testing.T) {
		if _, _, err := AddComment(task, person("alice"), "c-1", "x", MaxCommentsPerTask-1, now); err != nil {
			t.Fatalf("the 500th: %v", err)
		}
		_, _, err := AddComment(task, person("alice"), "c-1", "x", MaxCommentsPerTask, now)
		requireFieldError(t, err, "text")
	})
	t.Run("ErrTooManyMentions", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i <= MaxCommentMentions; i++ {
			b.WriteString("@u" + strings.Repeat("x", i) + " ")
		}
		_, _, err := AddComment(task, person("alice"), "c-1", b.String(), 0, now)
		requireFieldError(t, err, "text")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		other := person("alice")
		other.Tenant = "other"
		for name, a := range map[string]Actor{"Guest": guest(task, "inv-1"), "System": SystemActor(testTenant), "OtherTenant": other} {
			if _, _, err := AddComment(task, a, "c-1", "x", 0, now); !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: err = %v, want not found", name, err)
			}
		}
	})
}

func TestDeleteComment(t *testing.T) {
	task := newTask(t, nil)
	c, _, err := AddComment(task, person("alice"), "c-1", "hello", 0, now)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("AuthorWithinWindow", func(t *testing.T) {
		ev, err := DeleteComment(task, person("alice"), c, now.Add(CommentDeleteWindow))
		if err != nil || ev.Type != EventCommentDeleted || string(ev.Metadata) != `{"comment":"c-1"}` {
			t.Fatalf("ev %+v err %v", ev, err)
		}
	})
	t.Run("ErrForbiddenAuthorLate", func(t *testing.T) {
		if _, err := DeleteComment(task, person("alice"), c, now.Add(CommentDeleteWindow+time.Microsecond)); !errors.Is(err, ErrForbidden) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ManagerAnytime", func(t *testing.T) {
		if _, err := DeleteComment(task, manager("boss"), c, now.Add(48*time.Hour)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrForbiddenOtherReader", func(t *testing.T) {
		if _, err := DeleteComment(task, person("bob"), c, now); !errors.Is(err, ErrForbidden) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrForbiddenSameIDOtherProvider", func(t *testing.T) {
		a := person("alice")
		a.Subject.Provider = "elsewhere"
		if _, err := DeleteComment(task, a, c, now); !errors.Is(err, ErrForbidden) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		other := c
		other.TaskID = "another-task"
		if _, err := DeleteComment(task, manager("boss"), other, now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("other task: err = %v", err)
		}
		if _, err := DeleteComment(task, guest(task, "inv-1"), c, now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("guest: err = %v", err)
		}
	})
}

// requireFieldError fails unless err is a validation-failed error naming field.
func requireFieldError(t *testing.T, err error, field string) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Code != CodeValidationFailed || len(ve.Fields) == 0 || ve.Fields[0].Field != field {
		t.Fatalf("err = %v, want validation-failed naming %s", err, field)
	}
}

// FuzzCommentText checks the comment text rules against each other: accepted text is valid
// UTF-8 without refused control characters, within the limit after trimming; the mentions of
// any input are distinct, non-empty, within the id limit and found in the text after an "@".
func FuzzCommentText(f *testing.F) {
	for _, s := range []string{"", "hi @ann", "a@b.c", "@", "\x00", "\xff@x", "@jürgen.", "\t\n", "@a@b@c", strings.Repeat("@x ", 60)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CommentTextProblem(s) == "" {
			trimmed := strings.TrimSpace(s)
			if trimmed == "" || len([]rune(trimmed)) > MaxCommentLength || TextProblem(s, Prose) != "" {
				t.Fatalf("accepted %q", s)
			}
		}
		seen := map[string]bool{}
		for _, id := range ParseMentions(s) {
			if id == "" || len(id) > MaxParticipantIDLength || seen[id] || !strings.Contains(s, "@"+id) {
				t.Fatalf("mention %q of %q", id, s)
			}
			seen[id] = true
		}
	})
}

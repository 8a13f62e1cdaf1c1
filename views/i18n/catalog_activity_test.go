package i18n

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"usertasks/models"
)

// TestActivityTextComplete: every language says every Activity text, with the same %s slots
// as English, and puts every refusal English puts in words.
func TestActivityTextComplete(t *testing.T) {
	en := reflect.ValueOf(english.Activity)
	for _, c := range Supported {
		v := reflect.ValueOf(c.Activity)
		for i := range v.NumField() {
			if v.Field(i).Kind() != reflect.String {
				continue
			}
			field, got := v.Type().Field(i).Name, v.Field(i).String()
			if got == "" {
				t.Errorf("%s: Activity.%s is empty", c.Lang, field)
			}
			if want := strings.Count(en.Field(i).String(), "%s"); strings.Count(got, "%s") != want {
				t.Errorf("%s: Activity.%s has %d %%s, want %d", c.Lang, field, strings.Count(got, "%s"), want)
			}
		}
		for msg := range english.Activity.Refusals {
			if c.Activity.Refusals[msg] == "" {
				t.Errorf("%s: no words for the refusal %q", c.Lang, msg)
			}
		}
		if len(c.Activity.Refusals) != len(english.Activity.Refusals) {
			t.Errorf("%s: %d refusals, English has %d", c.Lang, len(c.Activity.Refusals), len(english.Activity.Refusals))
		}
	}
}

// TestActivityRefusalsAreTheModelsMessages: the refusals are keyed by the models' own messages,
// so a reworded message there shows up here rather than as English on a German page.
func TestActivityRefusalsAreTheModelsMessages(t *testing.T) {
	msgs := []string{models.CommentTextProblem("  "), models.CommentTextProblem(strings.Repeat("a", models.MaxCommentLength+1))}
	for _, name := range []string{"a\x01b.pdf", strings.Repeat("n", 300), "..", "\xff.pdf"} {
		_, err := models.AttachmentFileName(name)
		var ve *models.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) == 0 {
			t.Fatalf("AttachmentFileName(%q) = %v, want a field error", name, err)
		}
		msgs = append(msgs, ve.Fields[0].Message)
	}
	for _, m := range msgs {
		if english.Activity.Refusals[m] == "" {
			t.Errorf("no words for the models' message %q", m)
		}
	}
}

// TestActivityCountWords: the inbox row's counts in both languages, plurals right, a kind
// counted 0 left out.
func TestActivityCountWords(t *testing.T) {
	for _, tc := range []struct {
		lang            string
		comments, files int
		want            string
	}{
		{"en", 3, 1, "3 comments, 1 file"},
		{"en", 1, 2, "1 comment, 2 files"},
		{"en", 0, 1, "1 file"},
		{"en", 0, 0, ""},
		{"de", 3, 1, "3 Kommentare, 1 Datei"},
		{"de", 1, 2, "1 Kommentar, 2 Dateien"},
		{"de", 5, 0, "5 Kommentare"},
	} {
		c := ByLang(tc.lang)
		if got := c.ActivityCount(tc.comments, tc.files); got != tc.want {
			t.Errorf("%s %d/%d: %q, want %q", tc.lang, tc.comments, tc.files, got, tc.want)
		}
	}
	for _, c := range Supported {
		for name, forms := range map[string][2]string{"CommentCount": c.Activity.CommentCount, "FileCount": c.Activity.FileCount} {
			for _, f := range forms {
				if strings.Count(f, "%d") != 1 {
					t.Errorf("%s: Activity.%s form %q needs one %%d", c.Lang, name, f)
				}
			}
		}
	}
}

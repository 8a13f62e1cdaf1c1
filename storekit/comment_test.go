package storekit

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

func ruleComment(author models.ParticipantRef, mentions ...string) models.Comment {
	c := models.Comment{ID: "c-1", Tenant: "t1", TaskID: "task-1", Author: author, Text: "hello", CreatedAt: time.Unix(1700000000, 0).UTC()}
	for _, m := range mentions {
		c.Mentions = append(c.Mentions, ruleUser(m))
	}
	return c
}

// TestCommentRowRoundTrip: the body is sealed (no plaintext in the row) and opens back to the
// text and mentions; a body moved to another comment, task or tenant does not open.
func TestCommentRowRoundTrip(t *testing.T) {
	codec := Codec{Sealer: testSealer(t), Precision: time.Microsecond}
	c := ruleComment(ruleUser("ann"), "bob", "jürgen")
	c.Text = "Ist das die richtige IBAN? DE02"
	row, err := codec.CommentRow(&c)
	if err != nil {
		t.Fatal(err)
	}
	if row.BodyEnc == nil || strings.Contains(*row.BodyEnc, "IBAN") || strings.Contains(*row.BodyEnc, "jürgen") {
		t.Fatalf("body %v", row.BodyEnc)
	}
	got, err := codec.Comment(&row)
	if err != nil {
		t.Fatal(err)
	}
	want := c
	want.Author.DisplayName = "User ann"
	for i := range want.Mentions {
		want.Mentions[i].DisplayName = ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("opened %+v, want %+v", got, want)
	}
	for name, moved := range map[string]func(r *CommentRow){
		"OtherComment": func(r *CommentRow) { r.ID = "c-2" },
		"OtherTask":    func(r *CommentRow) { r.TaskID = "task-2" },
		"OtherTenant":  func(r *CommentRow) { r.TenantID = "t2" },
		// The separator cannot be smuggled in through the ids.
		"Rejoined": func(r *CommentRow) { r.TenantID, r.TaskID = "t1"+sealScopeSep+"task-1", "" },
	} {
		r := row
		moved(&r)
		var ce *models.CorruptError
		if _, err := codec.Comment(&r); !errors.As(err, &ce) {
			t.Errorf("%s: opened with %v, want a corrupt-store error", name, err)
		}
	}
	deleted := row
	deleted.BodyEnc, deleted.DeletedAt = nil, &c.CreatedAt
	if got, err := codec.Comment(&deleted); err != nil || got.Text != "" || got.Mentions != nil || got.DeletedAt == nil {
		t.Fatalf("deleted %+v, %v", got, err)
	}
}

func TestCheckComment(t *testing.T) {
	ok := ruleComment(ruleUser("ann"))
	if err := CheckComment(&ok); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(c *models.Comment){
		"NoID":        func(c *models.Comment) { c.ID = "" },
		"LongID":      func(c *models.Comment) { c.ID = strings.Repeat("a", 37) },
		"ControlID":   func(c *models.Comment) { c.ID = "a\x1fb" },
		"GroupAuthor": func(c *models.Comment) { c.Author = ruleGroup("sales") },
		"BlankText":   func(c *models.Comment) { c.Text = " " },
		"NoTask":      func(c *models.Comment) { c.TaskID = "" },
	} {
		c := ok
		edit(&c)
		if err := CheckComment(&c); !errors.Is(err, models.ErrInvalid) {
			t.Errorf("%s: %v, want refused", name, err)
		}
	}
}

// TestCommentNotifications: mentioned to each mentioned user once, never to the author, an
// excluded user or a guest; comment-added to the assignee unless they wrote or were mentioned;
// the key's revision is the comment's event sequence number.
func TestCommentNotifications(t *testing.T) {
	task := ruleTask() // bob excluded
	zoe := ruleUser("zoe")
	task.Assignee = &zoe
	now := time.Unix(1700000000, 0).UTC()
	keys := func(ns []models.Notification) []string {
		var out []string
		for _, n := range ns {
			out = append(out, fmt.Sprintf("%s %s r%d", n.Trigger, n.Recipient.ID, n.Revision))
			if n.Actor == nil || n.Actor.ID == "" || n.Title != task.Title || n.Recipient.Tenant != "t1" {
				t.Fatalf("row %+v", n)
			}
		}
		return out
	}
	guest := models.GuestRef("t1", "inv-1")
	c := ruleComment(ruleUser("ann"), "dan", "bob", "ann", "dan")
	c.Mentions = append(c.Mentions, guest, ruleGroup("sales"))
	if got, want := keys(CommentNotifications(&task, &c, 9, now)), []string{"mentioned dan r9", "comment-added zoe r9"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	mentionsZoe := ruleComment(ruleUser("ann"), "zoe")
	if got, want := keys(CommentNotifications(&task, &mentionsZoe, 10, now)), []string{"mentioned zoe r10"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	byZoe := ruleComment(zoe, "zoe")
	if got := CommentNotifications(&task, &byZoe, 11, now); len(got) != 0 {
		t.Fatalf("the assignee's own comment tells %q", keys(got))
	}
}

func TestSealRow(t *testing.T) {
	comments, _ := SealedTableNamed(CommentTable)
	if got, want := comments.SealRow([]string{"t1", "task-1"}, "c-1"), CommentSealID("t1", "task-1", "c-1"); got != want {
		t.Fatalf("SealRow %q, want %q", got, want)
	}
	tasks, _ := SealedTableNamed(TaskTable)
	if got := tasks.SealRow(nil, "task-1"); got != "task-1" {
		t.Fatalf("an unscoped table's row %q", got)
	}
}

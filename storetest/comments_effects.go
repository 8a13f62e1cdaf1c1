package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testCommentNotifications: a comment tells each user it mentions once (mentioned) and the
// assignee (comment-added) when someone else wrote it, in its own transaction, keyed by the
// comment's event so a second comment tells again; never the author, an excluded user or a
// guest.
func testCommentNotifications(t *testing.T, h Harness) {
	s, _ := noteStore(t, h)
	zoe := User("t1", "zoe")
	task := CreateTask(t, s, TaskOpts{Assignee: &zoe, CandidateUsers: []string{"ann", "bob"}, Excluded: []string{"eve"}})
	drain(t, s)
	ann := queryActor("t1", "ann", false)
	seq := func() int64 { return int64(mustGet(t, s, "t1", task.ID).LastEventSeq) }

	comment(t, s, task, ann, "@bob @bob @ann @eve @stranger and mail bob@example.org, @zoe")
	first := seq()
	wantKeys(t, "mentions", drain(t, s),
		fmt.Sprintf("mentioned user:bob r%d", first),
		fmt.Sprintf("mentioned user:stranger r%d", first), // the delivery decides whether they may read the task
		fmt.Sprintf("mentioned user:zoe r%d", first),      // mentioned already: no comment-added besides
	)

	comment(t, s, task, ann, "again @bob")
	second := seq()
	wantKeys(t, "a second comment", drain(t, s),
		fmt.Sprintf("mentioned user:bob r%d", second),
		fmt.Sprintf("comment-added user:zoe r%d", second))

	comment(t, s, task, queryActor("t1", "zoe", false), "the assignee's own, @zoe")
	if got := drain(t, s); len(got) != 0 {
		t.Fatalf("the assignee's own comment told %q", noteKeys(got))
	}

	ns := func() []models.Notification {
		comment(t, s, task, ann, "actor check @bob")
		return drain(t, s)
	}()
	if len(ns) != 2 {
		t.Fatalf("rows %q", noteKeys(ns))
	}
	for _, n := range ns {
		if n.Actor == nil || n.Actor.ID != "ann" || n.Actor.DisplayName != "User ann" || n.Title != task.Title || n.TaskID != task.ID {
			t.Fatalf("row %+v: want ann as the actor and the task's title", n)
		}
	}
}

// testCommentPurge: the purge of a terminal task removes its comments and counts them.
func testCommentPurge(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	ann := queryActor("t1", "ann", false)
	done := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
	for _, text := range []string{"one", "two", "three"} {
		comment(t, s, done, ann, text)
	}
	del := comment(t, s, done, ann, "four")
	if _, err := s.DeleteComment(ctx(t), "t1", done.ID, del.ID, commentDelete(ann)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mutate(ctx(t), "t1", done.ID, "", transition(models.StatusCompleting, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mutate(ctx(t), "t1", done.ID, "", transition(models.StatusCompleted, "")); err != nil {
		t.Fatal(err)
	}
	open := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	kept := comment(t, s, open, ann, "stays")
	clock.Advance(purgeAge + 24*time.Hour)
	got, err := s.Purge(ctx(t), "t1", models.RetentionPolicy{TerminalAge: purgeAge, PageSize: 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tasks != 1 || got.Comments != 4 {
		t.Fatalf("purged %+v, want 1 task and 4 comments", got)
	}
	if n := h.records(t, s, "user_task_comments", map[string]any{"task_id": done.ID}); n != 0 {
		t.Fatalf("%d comments of the purged task remain", n)
	}
	if list := allComments(t, s, "t1", done.ID, 0); len(list) != 0 {
		t.Fatalf("the purged task lists %+v", list)
	}
	if list := allComments(t, s, "t1", open.ID, 0); len(list) != 1 || list[0].ID != kept.ID {
		t.Fatalf("the open task lists %+v", list)
	}
}

// testCommentRekey: a rotation reseals every comment under the primary key (the comments are
// one of storekit.SealedTables), after which the old key can go; a key that opens nothing is
// reported by the rotation and by the audit, never rewritten.
func testCommentRekey(t *testing.T, h Harness) {
	keys := ring(t, "old", "new", "stranger")
	s := h.open(t, Options{Keys: parseRing(t, keys["old"])})
	ann := queryActor("t1", "ann", false)
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	var texts, ids []string
	for i := 0; i < 3; i++ {
		texts = append(texts, fmt.Sprintf("sealed comment %d", i))
		ids = append(ids, comment(t, s, task, ann, texts[i]).ID)
	}
	gone := comment(t, s, task, ann, "deleted")
	if _, err := s.DeleteComment(ctx(t), "t1", task.ID, gone.ID, commentDelete(ann)); err != nil {
		t.Fatal(err)
	}
	s = h.reopen(t, s, Options{Keys: parseRing(t, keys["new"], keys["old"])})
	page, err := s.RekeyPage(ctx(t), "user_task_comments", "", 2, false)
	if err != nil || page.Rows != 2 || page.Next == "" {
		t.Fatalf("first page %+v, %v", page, err)
	}
	resealed := page.Resealed
	for page.Next != "" {
		if page, err = s.RekeyPage(ctx(t), "user_task_comments", page.Next, 2, false); err != nil {
			t.Fatal(err)
		}
		resealed += page.Resealed
	}
	if resealed != 3 {
		t.Fatalf("resealed %d comments, want 3 (the deleted one holds nothing)", resealed)
	}
	if p, err := s.RekeyPage(ctx(t), "user_task_comments", "", 500, false); err != nil || p.Resealed != 0 || p.ByKey["new"] != 3 || p.ByKey["old"] != 0 {
		t.Fatalf("rerun %+v, %v", p, err)
	}
	s = h.reopen(t, s, Options{Keys: parseRing(t, keys["new"])})
	var got []string
	for _, c := range allComments(t, s, "t1", task.ID, 0) {
		if !c.Deleted() {
			got = append(got, c.Text)
		}
	}
	if !slices.Equal(got, texts) {
		t.Fatalf("after the rotation %q, want %q", got, texts)
	}
	n, findings, _ := AuditAll(t, s, store.AuditFilter{Tenant: "t1"}, 10)
	if n != 1 || len(findings) != 0 {
		t.Fatalf("audit of the rotated store: %d tasks, %+v", n, findings)
	}

	s = h.reopen(t, s, Options{Keys: parseRing(t, keys["stranger"])})
	if p, err := s.RekeyPage(ctx(t), "user_task_comments", "", 500, false); err != nil || p.Resealed != 0 || len(p.Unreadable) != 3 {
		t.Fatalf("under a stranger's key: %+v, %v", p, err)
	}
	_, findings, _ = AuditAll(t, s, store.AuditFilter{Tenant: "t1"}, 10)
	comments := 0
	for _, f := range findings {
		if f.Invariant == "ciphertext" && f.Row != "" && f.TaskID == task.ID {
			comments++
		}
	}
	if comments != 3 {
		t.Fatalf("audit under a stranger's key found %d unreadable comments, want 3: %+v", comments, findings)
	}
	// A body no key opens can still be erased by a manager; the others stay unreadable.
	if p, err := s.Comments(ctx(t), models.CommentQuery{Tenant: "t1", TaskID: task.ID}); !errors.Is(err, models.ErrCorrupt) {
		t.Fatalf("listed unreadable comments: %+v, %v; want corrupt-store", p, err)
	}
	erased, err := s.DeleteComment(ctx(t), "t1", task.ID, ids[0], commentDelete(queryActor("t1", "boss", true)))
	if err != nil || erased.DeletedAt == nil || erased.Text != "" {
		t.Fatalf("erasing an unreadable comment: %+v, %v", erased, err)
	}
	if p, err := s.RekeyPage(ctx(t), "user_task_comments", "", 500, true); err != nil || len(p.Unreadable) != 2 {
		t.Fatalf("after the erase: %+v, %v", p, err)
	}
}

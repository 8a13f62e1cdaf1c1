package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// The comment cases (SPEC 10.1, store.Comments): a comment is sealed, listed oldest first,
// erased on delete, notifies in its own transaction, never raises the revision, and leaves
// with its task. The decisions are the models' (models.AddComment, models.DeleteComment), run
// by the store in its write as the service runs them.

// commentAdd is the add function of a by a with text, the id chosen by the caller.
func commentAdd(a models.Actor, id, text string) models.CommentAddFunc {
	return func(now time.Time, task models.Task, count int) (models.Comment, models.Event, error) {
		return models.AddComment(task, a, id, text, count, now)
	}
}

// comment stores a comment by a on task and returns it.
func comment(t *testing.T, s store.Store, task models.Task, a models.Actor, text string) models.Comment {
	t.Helper()
	id := models.NewID()
	c, err := s.AddComment(ctx(t), task.Tenant, task.ID, id, commentAdd(a, id, text))
	if err != nil {
		t.Fatalf("add comment %q: %v", text, err)
	}
	return c
}

// commentDelete is the delete decision of a.
func commentDelete(a models.Actor) models.CommentDeleteFunc {
	return func(now time.Time, task models.Task, c models.Comment) (models.Event, error) {
		return models.DeleteComment(task, a, c, now)
	}
}

// allComments follows the cursor over a task's comments in pages of limit.
func allComments(t *testing.T, s store.Store, tenant, taskID string, limit int) []models.Comment {
	t.Helper()
	var out []models.Comment
	q := models.CommentQuery{Tenant: tenant, TaskID: taskID, Limit: limit}
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the comment pages do not end")
		}
		p, err := s.Comments(ctx(t), q)
		if err != nil {
			t.Fatalf("comments: %v", err)
		}
		if limit > 0 && len(p.Items) > limit {
			t.Fatalf("a page of %d holds %d comments", limit, len(p.Items))
		}
		out = append(out, p.Items...)
		if p.Next == nil {
			return out
		}
		q.After = p.Next
	}
}

func commentIDs(cs []models.Comment) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// commentEvents are the task's comment events as "type:comment id".
func commentEvents(t *testing.T, s store.Store, task models.Task) []string {
	t.Helper()
	var out []string
	for _, e := range mustEvents(t, s, task.Tenant, task.ID) {
		if e.Type != models.EventCommentAdded && e.Type != models.EventCommentDeleted {
			continue
		}
		var meta map[string]any
		if err := json.Unmarshal(e.Metadata, &meta); err != nil || len(meta) != 1 {
			t.Fatalf("%s metadata %s: want the comment id only", e.Type, e.Metadata)
		}
		out = append(out, fmt.Sprintf("%s:%v", e.Type, meta["comment"]))
	}
	return out
}

func testComments(t *testing.T, h Harness) {
	ann := queryActor("t1", "ann", false)
	bob := queryActor("t1", "bob", false)
	boss := queryActor("t1", "boss", true)

	t.Run("RoundTripSealedNoRevisionBump", func(t *testing.T) {
		s := h.open(t, Options{})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann", "bob"}})
		const text = "Ist das die richtige IBAN? 💶\n\t— @bob, bitte prüfen"
		c := comment(t, s, task, ann, "  "+text+"\n")
		if c.Text != text || c.Author.ID != "ann" || c.Author.DisplayName != "User ann" || c.CreatedAt.IsZero() || c.Deleted() {
			t.Fatalf("added %+v", c)
		}
		got := allComments(t, s, "t1", task.ID, 0)
		if len(got) != 1 {
			t.Fatalf("listed %d comments", len(got))
		}
		g := got[0]
		if g.ID != c.ID || g.Text != text || !g.Author.Same(ann.Subject) || g.Author.DisplayName != "User ann" || !g.CreatedAt.Equal(c.CreatedAt) ||
			len(g.Mentions) != 1 || !g.Mentions[0].Same(User("t1", "bob")) {
			t.Fatalf("listed %+v, want %+v", g, c)
		}
		after := mustGet(t, s, "t1", task.ID)
		if after.Revision != task.Revision || after.LastEventSeq != task.LastEventSeq+1 || !after.UpdatedAt.Equal(task.UpdatedAt) {
			t.Fatalf("task after a comment: revision %d seq %d updated %v; before %d %d %v",
				after.Revision, after.LastEventSeq, after.UpdatedAt, task.Revision, task.LastEventSeq, task.UpdatedAt)
		}
		if evs := commentEvents(t, s, task); !slices.Equal(evs, []string{"comment-added:" + c.ID}) {
			t.Fatalf("events %q", evs)
		}
		if n := h.containing(t, s, "user_task_comments", "body_enc", "IBAN"); n != 0 {
			t.Fatalf("%d stored bodies hold the plaintext", n)
		}
		if n := h.records(t, s, "user_task_comments", map[string]any{"task_id": task.ID}); n != 1 {
			t.Fatalf("%d comment records, want 1", n)
		}
	})

	t.Run("ReplayKeepsTheFirst", func(t *testing.T) {
		s := h.open(t, Options{})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		id := models.NewID()
		first, err := s.AddComment(ctx(t), "t1", task.ID, id, commentAdd(ann, id, "first"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.AddComment(ctx(t), "t1", task.ID, id, func(time.Time, models.Task, int) (models.Comment, models.Event, error) {
			return models.Comment{}, models.Event{}, errors.New("a replay must not decide again")
		})
		if err != nil || again.ID != id || again.Text != "first" || !again.CreatedAt.Equal(first.CreatedAt) {
			t.Fatalf("replay: %+v, %v", again, err)
		}
		if evs := commentEvents(t, s, task); len(evs) != 1 {
			t.Fatalf("events %q after a replay", evs)
		}
	})

	t.Run("ListOldestFirstByCursor", func(t *testing.T) {
		s := h.open(t, Options{})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		other := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		var want []string
		for i := 0; i < 7; i++ {
			want = append(want, comment(t, s, task, ann, fmt.Sprintf("comment %d", i)).ID)
			comment(t, s, other, ann, "elsewhere")
		}
		for _, limit := range []int{1, 2, 3, 7, 50} {
			got := allComments(t, s, "t1", task.ID, limit)
			if !slices.Equal(commentIDs(got), want) {
				t.Fatalf("limit %d: %q, want %q", limit, commentIDs(got), want)
			}
			for i, c := range got {
				if c.Text != fmt.Sprintf("comment %d", i) {
					t.Fatalf("limit %d: item %d text %q", limit, i, c.Text)
				}
				if i > 0 && c.CreatedAt.Before(got[i-1].CreatedAt) {
					t.Fatalf("limit %d: item %d is older than the one before", limit, i)
				}
			}
		}
	})

	t.Run("LimitPerTask", func(t *testing.T) {
		s := h.open(t, Options{})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		var counts []int
		for i := 0; i < 3; i++ {
			id := models.NewID()
			_, err := s.AddComment(ctx(t), "t1", task.ID, id, func(now time.Time, tk models.Task, count int) (models.Comment, models.Event, error) {
				counts = append(counts, count)
				return models.AddComment(tk, ann, id, "x", count, now)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(counts, []int{0, 1, 2}) {
			t.Fatalf("counts handed to add %v", counts)
		}
		deleted := comment(t, s, task, ann, "deleted ones count")
		if _, err := s.DeleteComment(ctx(t), "t1", task.ID, deleted.ID, commentDelete(ann)); err != nil {
			t.Fatal(err)
		}
		const racers = 20
		for i := 4; i < models.MaxCommentsPerTask-racers/2; i++ {
			comment(t, s, task, ann, "x")
		}
		// The last places, raced for: exactly as many writers win as there are places.
		var wg sync.WaitGroup
		var won, refused atomic.Int32
		for range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := models.NewID()
				_, err := s.AddComment(ctx(t), "t1", task.ID, id, commentAdd(ann, id, "race"))
				var ve *models.ValidationError
				switch {
				case err == nil:
					won.Add(1)
				case errors.As(err, &ve):
					refused.Add(1)
				default:
					t.Errorf("a racer: %v", err)
				}
			}()
		}
		wg.Wait()
		if won.Load() != racers/2 || refused.Load() != racers/2 {
			t.Fatalf("%d racers won, %d were refused; want %d each", won.Load(), refused.Load(), racers/2)
		}
		id := models.NewID()
		_, err := s.AddComment(ctx(t), "t1", task.ID, id, commentAdd(ann, id, "one too many"))
		wantField(t, err, "text")
		if n := len(allComments(t, s, "t1", task.ID, models.MaxPageSize)); n != models.MaxCommentsPerTask {
			t.Fatalf("%d comments stored, want %d", n, models.MaxCommentsPerTask)
		}
	})

	t.Run("DeleteErasesTheText", func(t *testing.T) {
		s := h.open(t, Options{})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann", "bob"}})
		c := comment(t, s, task, ann, "the secret IBAN DE02120300000000202051 @bob")
		keep := comment(t, s, task, bob, "kept")
		if _, err := s.DeleteComment(ctx(t), "t1", task.ID, c.ID, commentDelete(bob)); !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("another reader deleted: %v", err)
		}
		got, err := s.DeleteComment(ctx(t), "t1", task.ID, c.ID, commentDelete(ann))
		if err != nil || got.Text != "" || got.Mentions != nil || got.DeletedAt == nil || got.ID != c.ID || !got.Author.Same(ann.Subject) {
			t.Fatalf("deleted %+v, %v", got, err)
		}
		list := allComments(t, s, "t1", task.ID, 0)
		if len(list) != 2 || list[0].ID != c.ID || list[0].Text != "" || list[0].DeletedAt == nil || !list[0].DeletedAt.Equal(*got.DeletedAt) ||
			list[0].Author.ID != "ann" || list[1].Text != "kept" || list[1].ID != keep.ID {
			t.Fatalf("listed %+v", list)
		}
		if n := h.containing(t, s, "user_task_comments", "body_enc", "DE02"); n != 0 {
			t.Fatalf("%d bodies hold the plaintext", n)
		}
		if n := h.records(t, s, "user_task_comments", map[string]any{"id": c.ID, "body_enc": nil}); n != 1 {
			t.Fatalf("the deleted body is still stored (%d records with none)", n)
		}
		// A second delete (a manager's, later) answers the same and writes nothing.
		again, err := s.DeleteComment(ctx(t), "t1", task.ID, c.ID, commentDelete(boss))
		if err != nil || !again.DeletedAt.Equal(*got.DeletedAt) {
			t.Fatalf("second delete %+v, %v", again, err)
		}
		want := []string{"comment-added:" + c.ID, "comment-added:" + keep.ID, "comment-deleted:" + c.ID}
		if evs := commentEvents(t, s, task); !slices.Equal(evs, want) {
			t.Fatalf("events %q, want %q", evs, want)
		}
		if after := mustGet(t, s, "t1", task.ID); after.Revision != task.Revision {
			t.Fatalf("revision %d after comments, want %d", after.Revision, task.Revision)
		}
	})

	t.Run("TenantAndTaskIsolation", func(t *testing.T) {
		s := h.open(t, Options{})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		other := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		c := comment(t, s, task, ann, "mine")
		if got := allComments(t, s, "t2", task.ID, 0); len(got) != 0 {
			t.Fatalf("another tenant lists %+v", got)
		}
		intruder := queryActor("t2", "ann", true)
		id := models.NewID()
		if _, err := s.AddComment(ctx(t), "t2", task.ID, id, commentAdd(intruder, id, "x")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another tenant added: %v", err)
		}
		if _, err := s.DeleteComment(ctx(t), "t2", task.ID, c.ID, commentDelete(intruder)); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another tenant deleted: %v", err)
		}
		if _, err := s.DeleteComment(ctx(t), "t1", other.ID, c.ID, commentDelete(boss)); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("deleted through another task: %v", err)
		}
		for _, id := range []string{"", "../" + c.ID, c.ID + "?x", "a/b#c", "ünïcødé id", strings.ToUpper(c.ID)} {
			if _, err := s.DeleteComment(ctx(t), "t1", task.ID, id, commentDelete(boss)); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("delete %q: %v", id, err)
			}
		}
		// The other task's id replayed on this task is a new comment, not the other's.
		if _, err := s.AddComment(ctx(t), "t1", other.ID, c.ID, commentAdd(ann, c.ID, "x")); err == nil {
			t.Fatal("a comment id of another task was taken again")
		}
		if got := allComments(t, s, "t1", task.ID, 0); len(got) != 1 || got[0].Text != "mine" {
			t.Fatalf("listed %+v", got)
		}
	})

	t.Run("Notifications", func(t *testing.T) { testCommentNotifications(t, h) })
	t.Run("PurgeRemoves", func(t *testing.T) { testCommentPurge(t, h) })
	t.Run("RekeyAndAudit", func(t *testing.T) { testCommentRekey(t, h) })
}

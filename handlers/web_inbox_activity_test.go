package handlers_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"usertasks/attachments"
	"usertasks/handlers"
	"usertasks/models"
	"usertasks/tasks"
)

// countingActivity counts the inbox's activity reads and the rows each one names; fail, when
// set, is what every read answers.
type countingActivity struct {
	handlers.TaskService
	calls, items *atomic.Int32
	fail         error
}

func (s countingActivity) ActivityCounts(ctx context.Context, a models.Actor, items []tasks.TaskView) (map[string]models.ActivityCount, error) {
	s.calls.Add(1)
	s.items.Add(int32(len(items)))
	if s.fail != nil {
		return nil, s.fail
	}
	return s.TaskService.ActivityCounts(ctx, a, items)
}

// rowActivity is a row's activity cell: its words and its counts; ok is false without one.
func rowActivity(t *testing.T, p *webPage, id string) (words, comments, files string, ok bool) {
	t.Helper()
	row := rowOf(p, id)
	if row == nil {
		t.Fatalf("no row of task %s", id)
	}
	cells := webWithin(row, "row-activity")
	if len(cells) == 0 {
		return "", "", "", false
	}
	c := cells[0]
	if title := webAttr(c, "title"); title != strings.TrimSpace(webText(c)) && !strings.HasPrefix(strings.TrimSpace(webText(c)), title) {
		t.Fatalf("row %s: tooltip %q and text %q differ", id, title, webText(c))
	}
	return webAttr(c, "title"), webAttr(c, "data-comments"), webAttr(c, "data-files"), true
}

func TestInboxRowActivityCounts(t *testing.T) {
	var calls, items atomic.Int32
	var fail atomic.Pointer[error]
	f := newWebFixtureWith(t, func(s handlers.TaskService) handlers.TaskService {
		return failingActivity{countingActivity{TaskService: s, calls: &calls, items: &items}, &fail}
	})
	ctx := context.Background()
	boss := bossActor()
	busy := f.seed(t, webTaskOpts{title: "Busy", assignee: "ann"})
	filed := f.seed(t, webTaskOpts{title: "Filed", assignee: "ann"})
	quiet := f.seed(t, webTaskOpts{title: "Quiet", assignee: "ann"})
	erased := f.seed(t, webTaskOpts{title: "Erased", assignee: "ann"})
	bobs := f.seed(t, webTaskOpts{title: "Bob's", assignee: "bob"})
	for _, text := range []string{"one", "two", "@ann three"} {
		if _, err := f.svc.AddComment(ctx, boss, busy.ID, tasks.CommentInput{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := f.svc.AddComment(ctx, boss, erased.ID, tasks.CommentInput{Text: "deleted, not counted"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteComment(ctx, boss, erased.ID, c.ID); err != nil {
		t.Fatal(err)
	}
	files := attachments.New(f.store, f.svc, attachments.Options{})
	for _, id := range []string{busy.ID, filed.ID, filed.ID} {
		if _, err := files.Upload(ctx, boss, id, attachments.UploadInput{Name: "invoice.pdf", Body: bytes.NewReader(smallPDF)}); err != nil {
			t.Fatal(err)
		}
	}
	ann := f.signIn(t, "ann")

	t.Run("OneReadPerPage", func(t *testing.T) {
		calls.Store(0)
		items.Store(0)
		ann.get("/inbox").wantStatus(http.StatusOK)
		if calls.Load() != 1 || items.Load() != 4 {
			t.Fatalf("%d activity reads naming %d rows, want one read for the page's 4 rows", calls.Load(), items.Load())
		}
	})

	t.Run("CountsOnTheirRows", func(t *testing.T) {
		p := ann.get("/inbox").wantStatus(http.StatusOK)
		for _, tc := range []struct {
			task                   models.Task
			words, comments, files string
		}{
			{busy, "3 comments, 1 file", "3", "1"},
			{filed, "2 files", "0", "2"},
		} {
			words, comments, files, ok := rowActivity(t, p, tc.task.ID)
			if !ok || words != tc.words || comments != tc.comments || files != tc.files {
				t.Errorf("%s: %q %s/%s (shown %v), want %q %s/%s", tc.task.Title, words, comments, files, ok, tc.words, tc.comments, tc.files)
			}
		}
		for _, task := range []models.Task{quiet, erased} {
			if words, _, _, ok := rowActivity(t, p, task.ID); ok {
				t.Errorf("%s shows %q: a task without comments or files shows nothing", task.Title, words)
			}
		}
	})

	t.Run("German", func(t *testing.T) {
		de := f.signIn(t, "ann")
		de.lang = "de"
		p := de.get("/inbox").wantStatus(http.StatusOK)
		if words, _, _, _ := rowActivity(t, p, busy.ID); words != "3 Kommentare, 1 Datei" {
			t.Fatalf("German words %q", words)
		}
		if words, _, _, _ := rowActivity(t, p, filed.ID); words != "2 Dateien" {
			t.Fatalf("German words %q", words)
		}
	})

	t.Run("NoColumnWithoutActivity", func(t *testing.T) {
		p := f.signIn(t, "bob").get("/inbox").wantStatus(http.StatusOK)
		if rowOf(p, bobs.ID) == nil {
			t.Fatalf("bob's rows %v", rowTitles(p))
		}
		if strings.Contains(p.body, "tasks__activity") {
			t.Fatal("a list whose rows have no comments or files shows the activity column")
		}
	})

	t.Run("ReadFailsPageShown", func(t *testing.T) {
		e := errors.New("database on fire")
		fail.Store(&e)
		defer fail.Store(nil)
		p := ann.get("/inbox").wantStatus(http.StatusOK)
		if len(rowTitles(p)) != 4 {
			t.Fatalf("rows %v, want the four tasks without their counts", rowTitles(p))
		}
		if _, _, _, ok := rowActivity(t, p, busy.ID); ok {
			t.Fatal("counts shown from a read that failed")
		}
	})
}

// failingActivity lets a test make the activity read fail from now on.
type failingActivity struct {
	countingActivity
	fail *atomic.Pointer[error]
}

func (s failingActivity) ActivityCounts(ctx context.Context, a models.Actor, items []tasks.TaskView) (map[string]models.ActivityCount, error) {
	if e := s.fail.Load(); e != nil {
		s.calls.Add(1)
		return nil, *e
	}
	return s.countingActivity.ActivityCounts(ctx, a, items)
}

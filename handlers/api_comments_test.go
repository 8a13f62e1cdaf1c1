package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
	"usertasks/testfactory"
)

type commentBody struct {
	ID        string  `json:"id"`
	Text      *string `json:"text"`
	CreatedAt string  `json:"createdAt"`
	DeletedAt *string `json:"deletedAt"`
	Author    struct {
		ID string `json:"id"`
	} `json:"author"`
	Mentions []struct {
		ID string `json:"id"`
	} `json:"mentions"`
}

type commentPageBody struct {
	Items      []commentBody `json:"items"`
	NextCursor *string       `json:"nextCursor"`
}

func TestComments(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, bob, eve, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "bob"), handlerstest.Worker("acme", "eve"), handlerstest.Manager("acme", "max")
	outsider := handlerstest.Manager("other", "max") // a manager of another tenant
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann", "bob"}, Excluded: []string{"eve"}})
	path := handlerstest.TaskPath(task.ID, "comments")
	post := func(t *testing.T, u handlerstest.User, body any, contract handlerstest.Contract) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: path, Token: env.Token(t, u), Body: body, Contract: contract})
	}
	list := func(t *testing.T, u handlerstest.User, query string) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path + query, Token: env.Token(t, u)})
	}
	del := func(t *testing.T, u handlerstest.User, taskID, commentID string) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: handlerstest.TaskPath(taskID, "comments", commentID), Token: env.Token(t, u)})
	}
	var first commentBody

	t.Run("OK", func(t *testing.T) {
		resp := post(t, ann, map[string]any{"text": "  Is this the right IBAN, @bob?\n"}, handlerstest.Conforms)
		resp.WantStatus(t, http.StatusCreated)
		resp.JSON(t, &first)
		if first.Text == nil || *first.Text != "Is this the right IBAN, @bob?" || first.Author.ID != "ann" || len(first.Mentions) != 1 || first.Mentions[0].ID != "bob" {
			t.Fatalf("created %+v", first)
		}
		for _, u := range []handlerstest.User{bob, max} {
			var page commentPageBody
			r := list(t, u, "")
			r.WantStatus(t, http.StatusOK)
			r.JSON(t, &page)
			if len(page.Items) != 1 || page.Items[0].ID != first.ID || page.NextCursor != nil {
				t.Fatalf("%s lists %+v", u.ID, page)
			}
		}
		if got := env.Get(t, task).Revision; got != task.Revision {
			t.Errorf("revision = %d, want %d (a comment changes no task)", got, task.Revision)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_comments WHERE body_enc LIKE ?", "%IBAN%"); n != 0 {
			t.Errorf("%d rows hold the plaintext", n)
		}
		if strings.Contains(env.Logs.String(), "IBAN") {
			t.Error("the log holds the comment's text")
		}
	})

	t.Run("ErrValidationText", func(t *testing.T) {
		for name, c := range map[string]struct {
			body     any
			contract handlerstest.Contract
		}{
			"Missing":       {map[string]any{}, handlerstest.Breaks},
			"Blank":         {map[string]any{"text": " \n\t "}, handlerstest.Conforms},
			"TooLong":       {map[string]any{"text": strings.Repeat("ü", models.MaxCommentLength+1)}, handlerstest.Conforms},
			"ControlChar":   {map[string]any{"text": "bell \a here"}, handlerstest.Conforms},
			"NUL":           {map[string]any{"text": "a\x00b"}, handlerstest.Conforms},
			"BidiOverride":  {map[string]any{"text": "a\u202eb"}, handlerstest.Conforms},
			"InvalidUTF8":   {[]byte("{\"text\":\"a\xff\"}"), handlerstest.Conforms}, // the document cannot say "UTF-8"
			"NotAString":    {map[string]any{"text": 42}, handlerstest.Breaks},
			"TooManyPeople": {map[string]any{"text": manyMentions(models.MaxCommentMentions + 1)}, handlerstest.Conforms},
		} {
			p := post(t, ann, c.body, c.contract).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), []string{"text"}) {
				t.Errorf("%s: fields = %v, want [text]", name, p.Fields())
			}
		}
		// The longest text passes; without mentions the list is empty, not absent.
		r := post(t, ann, map[string]any{"text": strings.Repeat("ü", models.MaxCommentLength)}, handlerstest.Conforms)
		r.WantStatus(t, http.StatusCreated)
		if !bytes.Contains(r.Body, []byte(`"mentions":[]`)) {
			t.Errorf("no mentions answered %s…", r.Body[:min(len(r.Body), 200)])
		}
	})

	t.Run("ErrNotFoundSameAsMissing", func(t *testing.T) {
		missing := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(models.NewID(), "comments"),
			Token: env.Token(t, ann), Body: map[string]any{"text": "x"}}).WantProblem(t, http.StatusNotFound, "not-found")
		for name, u := range map[string]handlerstest.User{"OtherTenant": outsider, "Excluded": eve} {
			p := post(t, u, map[string]any{"text": "x"}, handlerstest.Conforms).WantProblem(t, http.StatusNotFound, "not-found")
			if p.Title != missing.Title || p.Detail != missing.Detail || len(p.Errors) != 0 {
				t.Errorf("%s: %+v, want the body of a missing task %+v", name, p, missing)
			}
			list(t, u, "").WantProblem(t, http.StatusNotFound, "not-found")
			del(t, u, task.ID, first.ID).WantProblem(t, http.StatusNotFound, "not-found")
		}
		for _, id := range []string{models.NewID(), "no such comment", "a%2Fb", "%C3%BC"} {
			del(t, max, task.ID, id).WantProblem(t, http.StatusNotFound, "not-found")
		}
		other := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		del(t, max, other.ID, first.ID).WantProblem(t, http.StatusNotFound, "not-found")
	})

	t.Run("Idempotent", func(t *testing.T) {
		body := map[string]any{"text": "once", "operationId": "op-comment-1"}
		var a, b commentBody
		r := post(t, ann, body, handlerstest.Conforms)
		r.WantStatus(t, http.StatusCreated)
		r.JSON(t, &a)
		r = post(t, ann, body, handlerstest.Conforms)
		r.WantStatus(t, http.StatusCreated)
		r.JSON(t, &b)
		if a.ID != b.ID || a.CreatedAt != b.CreatedAt {
			t.Fatalf("a retry made another comment: %+v, %+v", a, b)
		}
		post(t, ann, map[string]any{"text": "twice", "operationId": "op-comment-1"}, handlerstest.Conforms).WantProblem(t, http.StatusConflict, "idempotency-conflict")
		// Another person's same operation id is their own comment.
		var c commentBody
		r = post(t, bob, body, handlerstest.Conforms)
		r.WantStatus(t, http.StatusCreated)
		r.JSON(t, &c)
		if c.ID == a.ID || c.Author.ID != "bob" {
			t.Fatalf("bob's comment %+v took ann's", c)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		var c commentBody
		r := post(t, ann, map[string]any{"text": "to delete"}, handlerstest.Conforms)
		r.WantStatus(t, http.StatusCreated)
		r.JSON(t, &c)
		del(t, bob, task.ID, c.ID).WantProblem(t, http.StatusForbidden, "forbidden")
		del(t, ann, task.ID, c.ID).WantStatus(t, http.StatusNoContent)
		del(t, ann, task.ID, c.ID).WantStatus(t, http.StatusNoContent) // deleted already: the same answer
		del(t, max, task.ID, first.ID).WantStatus(t, http.StatusNoContent)
		var page commentPageBody
		r = list(t, bob, "?limit=200")
		r.WantStatus(t, http.StatusOK)
		r.JSON(t, &page)
		for _, it := range page.Items {
			if (it.ID == c.ID || it.ID == first.ID) && (it.Text != nil || it.DeletedAt == nil || it.Mentions != nil || it.Author.ID != "ann") {
				t.Fatalf("deleted item %+v", it)
			}
		}
	})

	t.Run("ListByCursor", func(t *testing.T) {
		var all []string
		for cursor := ""; ; {
			var page commentPageBody
			r := list(t, bob, "?limit=2"+cursor)
			r.WantStatus(t, http.StatusOK)
			r.JSON(t, &page)
			for _, it := range page.Items {
				all = append(all, it.ID)
			}
			if page.NextCursor == nil {
				break
			}
			cursor = "&cursor=" + *page.NextCursor
		}
		var whole commentPageBody
		r := list(t, bob, "?limit=200")
		r.JSON(t, &whole)
		var want []string
		for _, it := range whole.Items {
			want = append(want, it.ID)
		}
		if !slices.Equal(all, want) || len(all) < 5 || all[0] != first.ID {
			t.Fatalf("paged %q, whole %q", all, want)
		}
		other := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"bob"}})
		var page commentPageBody
		list(t, bob, "?limit=1").JSON(t, &page)
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(other.ID, "comments") + "?cursor=" + *page.NextCursor,
			Token: env.Token(t, bob)}).WantProblem(t, http.StatusBadRequest, "malformed-request")
		list(t, bob, "?cursor=not-a-cursor").WantProblem(t, http.StatusBadRequest, "malformed-request")
	})

	t.Run("ErrLimit", func(t *testing.T) {
		full := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		a := testfactory.Worker("acme", "ann")
		for i := 0; i < models.MaxCommentsPerTask; i++ {
			id := models.NewID()
			if _, err := env.Store.AddComment(context.Background(), "acme", full.ID, id, func(now time.Time, tk models.Task, n int) (models.Comment, models.Event, error) {
				return models.AddComment(tk, a, id, "x", n, now)
			}); err != nil {
				t.Fatal(err)
			}
		}
		p := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(full.ID, "comments"), Token: env.Token(t, ann),
			Body: map[string]any{"text": "the 501st"}}).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
		if !slices.Equal(p.Fields(), []string{"text"}) {
			t.Errorf("fields = %v, want [text]", p.Fields())
		}
	})
}

// manyMentions is a text mentioning n different people.
func manyMentions(n int) string {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		b.WriteString("@user")
		json.NewEncoder(&b).Encode(i)
	}
	return b.String()
}

package tasks_test

import (
	"context"
	"errors"
	"testing"

	"usertasks/models"
	"usertasks/tasks"
)

// Who reads and writes comments is who may read the task's summary (SPEC 10.1): a candidate
// before claiming, a member of a candidate group only through the directory, a past actor after
// the task moved on, a manager; an excluded user and a stranger get 404, a guest 403.
func TestCommentReaders(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := f.project(t, nil) // candidates ann and the group finance, eve excluded
	write := func(a models.Actor, text string) error {
		_, err := f.svc.AddComment(ctx, a, task.ID, tasks.CommentInput{Text: text})
		return err
	}
	read := func(a models.Actor) ([]models.Comment, error) {
		p, err := f.svc.Comments(ctx, a, task.ID, nil, 0)
		return p.Items, err
	}

	t.Run("CandidateAndManager", func(t *testing.T) {
		for _, a := range []models.Actor{person("ann"), boss()} {
			if err := write(a, "hello from "+a.Subject.ID); err != nil {
				t.Fatalf("%s: %v", a.Subject.ID, err)
			}
		}
		got, err := read(person("ann"))
		if err != nil || len(got) != 2 {
			t.Fatalf("ann reads %d comments, %v", len(got), err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		// finance's members are candidates only through a directory, which this service lacks;
		// a token's group claim makes one a candidate of a live group.
		for name, a := range map[string]models.Actor{"Excluded": person("eve", "finance"), "Stranger": person("zed"), "OtherTenant": func() models.Actor {
			a := boss()
			a.Tenant = "t2"
			return a
		}()} {
			if err := write(a, "x"); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s writes: %v", name, err)
			}
			if _, err := read(a); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s reads: %v", name, err)
			}
		}
		if _, err := f.svc.DeleteComment(ctx, boss(), task.ID, "../x"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("a malformed comment id: %v", err)
		}
	})
	t.Run("GroupMemberByToken", func(t *testing.T) {
		if err := write(person("gus", "finance"), "a finance member asks"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("PastActor", func(t *testing.T) {
		rev := claimAs(t, f, person("gus", "finance"), task.ID)
		if _, err := f.svc.Assign(ctx, boss(), task.ID, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: rev},
			Assignee: models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "max"}}); err != nil {
			t.Fatal(err)
		}
		// Without his group claim gus is no candidate; he claimed before and stays a past actor.
		if err := write(person("gus"), "I handed it over"); err != nil {
			t.Fatalf("a past actor: %v", err)
		}
		got, err := read(person("max"))
		if err != nil || len(got) != 4 {
			t.Fatalf("the new assignee reads %d comments, %v", len(got), err)
		}
	})
	t.Run("ErrNotFoundNoRelation", func(t *testing.T) {
		if err := write(person("hal"), "x"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("no relation: %v", err)
		}
	})
	t.Run("ErrForbiddenGuest", func(t *testing.T) {
		g := person("x")
		g.Guest = &models.GuestGrant{TaskID: task.ID, InvitationID: "inv"}
		g.Subject = models.GuestRef("t1", "inv")
		if err := write(g, "x"); !errors.Is(err, models.ErrForbidden) {
			t.Errorf("a guest writes: %v", err)
		}
		if _, err := read(g); !errors.Is(err, models.ErrForbidden) {
			t.Errorf("a guest reads: %v", err)
		}
	})
	t.Run("ErrValidationOperationID", func(t *testing.T) {
		_, err := f.svc.AddComment(ctx, person("ann"), task.ID, tasks.CommentInput{Text: "x", OperationID: "bad\x00id"})
		wantCode(t, err, models.CodeValidationFailed)
	})
}

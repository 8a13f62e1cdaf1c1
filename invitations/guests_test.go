package invitations_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
)

type guestEnv struct {
	store  store.Store
	clock  *testfactory.Clock
	guests *invitations.Guests
	tasks  *tasks.Service
}

func newGuestEnv(t *testing.T) guestEnv {
	t.Helper()
	clock := &testfactory.Clock{}
	s := testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{Clock: clock.Now})
	return guestEnv{store: s, clock: clock, guests: invitations.NewGuests(s), tasks: tasks.New(s, tasks.Options{})}
}

func wantDenied(t *testing.T, err error) {
	t.Helper()
	if models.ErrorCode(err) != models.CodeGuestAccessDenied {
		t.Fatalf("error %v, want guest-access-denied", err)
	}
}

func TestGuestCodeFlow(t *testing.T) {
	ctx := context.Background()
	env := newGuestEnv(t)
	task := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}, Instructions: "Sign here"})
	inv := testfactory.Invitation(ctx, t, env.store, task, nil)

	t.Run("ChallengeSameShapeForAnyToken", func(t *testing.T) {
		valid, err := env.guests.Challenge(ctx, inv.Token)
		if err != nil || valid.ChallengeType != invitations.VerifierCode || !valid.RequiresCode || valid.Prompt == "" {
			t.Fatalf("challenge %+v, %v", valid, err)
		}
		unknown, _, _ := invitations.NewSecret()
		for _, tok := range []string{unknown, "", "short", "a/b?c#d e", "ünïcödé", strings.Repeat("x", 5000), inv.Token + "\x00"} {
			got, err := env.guests.Challenge(ctx, tok)
			if err != nil || got != valid {
				t.Errorf("Challenge(%q) = %+v, %v; want %+v", tok, got, err, valid)
			}
		}
	})
	t.Run("ErrGuestDeniedMalformed", func(t *testing.T) {
		for _, code := range []string{"", "12345", "1234567", "abcdef", " " + inv.Code[1:]} {
			_, err := env.guests.Verify(ctx, inv.Token, code)
			wantDenied(t, err)
		}
		_, err := env.guests.Verify(ctx, "not-a-token", inv.Code)
		wantDenied(t, err)
		// Malformed codes are wrong codes; a malformed token never reaches the invitation.
		if got, _ := env.store.FindInvitationByTokenHash(ctx, inv.TokenHash); got.CodeAttempts != 5 || got.Status != models.InvitationRevoked {
			t.Fatalf("attempts %d status %s", got.CodeAttempts, got.Status)
		}
	})
}

func TestGuestVerifyCompleteConsume(t *testing.T) {
	ctx := context.Background()
	env := newGuestEnv(t)
	task := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	inv := testfactory.Invitation(ctx, t, env.store, task, nil)

	wrong := "000000"
	if inv.Code == wrong {
		wrong = "999999"
	}
	_, err := env.guests.Verify(ctx, inv.Token, wrong)
	wantDenied(t, err)
	if strings.Contains(err.Error(), inv.Token) || strings.Contains(err.Error(), wrong) {
		t.Fatalf("the error names a secret: %v", err)
	}
	v, err := env.guests.Verify(ctx, inv.Token, inv.Code)
	if err != nil {
		t.Fatal(err)
	}
	if v.TaskID != task.ID || !invitations.PlausibleSecret(v.Credential) || v.ExpiresAt.IsZero() {
		t.Fatalf("verification %+v", v)
	}
	a, err := env.guests.Session(ctx, v.Credential)
	if err != nil {
		t.Fatal(err)
	}
	if a.Guest == nil || a.Guest.TaskID != task.ID || a.Guest.InvitationID != inv.ID || !a.Subject.Same(models.GuestRef("t1", inv.ID)) ||
		len(a.Guest.AllowedActions) != 1 || a.Manager || len(a.Permissions) != 0 {
		t.Fatalf("actor %+v", a)
	}
	// The tampered credential differs in a character that carries data: the last one of a
	// 43-character base64 credential holds padding bits too, and replacing it with "A" left it
	// unchanged in one run out of sixteen.
	tampered := []byte(v.Credential)
	tampered[10] = map[bool]byte{true: 'B', false: 'A'}[tampered[10] == 'A']
	for _, bad := range []string{"", inv.Token, "UserTaskSession " + v.Credential, string(tampered)} {
		_, err := env.guests.Session(ctx, bad)
		wantDenied(t, err)
	}
	cur, _ := env.store.Get(ctx, "t1", task.ID)
	if _, err := env.tasks.Complete(ctx, a, task.ID, tasks.CompleteInput{Common: tasks.Common{ExpectedRevision: cur.Revision, OperationID: "op-guest-1"},
		ActionKey: models.ActionComplete}); err != nil {
		t.Fatal(err)
	}
	if err := env.guests.Completed(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, _ := env.store.FindInvitationByTokenHash(ctx, inv.TokenHash)
	if got.Status != models.InvitationConsumed || got.ConsumedAt == nil {
		t.Fatalf("invitation %s, want consumed", got.Status)
	}
	_, err = env.guests.Session(ctx, v.Credential)
	wantDenied(t, err)
	_, err = env.guests.Verify(ctx, inv.Token, inv.Code)
	wantDenied(t, err)
}

func TestGuestBearer(t *testing.T) {
	ctx := context.Background()
	env := newGuestEnv(t)
	task := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	inv := testfactory.Invitation(ctx, t, env.store, task, &testfactory.InvitationOpts{Bearer: true})
	c, err := env.guests.Challenge(ctx, inv.Token)
	if err != nil || c.ChallengeType != invitations.VerifierBearer || c.RequiresCode {
		t.Fatalf("challenge %+v, %v", c, err)
	}
	if _, err := env.guests.Verify(ctx, inv.Token, ""); err != nil {
		t.Fatal(err)
	}
	// Used: it answers like any other token.
	if c, _ := env.guests.Challenge(ctx, inv.Token); c.ChallengeType != invitations.VerifierCode {
		t.Fatalf("a used bearer invitation still offers %+v", c)
	}
}

func TestGuestFiveWrongCodesUnusable(t *testing.T) {
	ctx := context.Background()
	env := newGuestEnv(t)
	task := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	inv := testfactory.Invitation(ctx, t, env.store, task, nil)
	for i := 0; i < models.MaxCodeAttempts; i++ {
		_, err := env.guests.Verify(ctx, inv.Token, "12345x")
		wantDenied(t, err)
	}
	_, err := env.guests.Verify(ctx, inv.Token, inv.Code)
	wantDenied(t, err)
	got, _ := env.store.FindInvitationByTokenHash(ctx, inv.TokenHash)
	if got.Status != models.InvitationRevoked {
		t.Fatalf("invitation %s, want revoked", got.Status)
	}
}

func TestGuestSessionDies(t *testing.T) {
	ctx := context.Background()
	env := newGuestEnv(t)
	verified := func(t *testing.T) (models.Task, string) {
		task := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
		inv := testfactory.Invitation(ctx, t, env.store, task, nil)
		v, err := env.guests.Verify(ctx, inv.Token, inv.Code)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.guests.Session(ctx, v.Credential); err != nil {
			t.Fatal(err)
		}
		task, _ = env.store.Get(ctx, "t1", task.ID)
		return task, v.Credential
	}
	t.Run("Reassigned", func(t *testing.T) {
		task, cred := verified(t)
		boss := testfactory.Manager("t1", "boss")
		_, err := env.tasks.Assign(ctx, boss, task.ID, tasks.AssignInput{Common: tasks.Common{ExpectedRevision: task.Revision, OperationID: "op-assign"},
			Assignee: testfactory.User("t1", "ann"), Reason: "the guest is away"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = env.guests.Session(ctx, cred)
		wantDenied(t, err)
	})
	t.Run("Closed", func(t *testing.T) {
		task, cred := verified(t)
		testfactory.Finalize(ctx, t, env.store, task)
		_, err := env.guests.Session(ctx, cred)
		wantDenied(t, err)
	})
	t.Run("Expired", func(t *testing.T) {
		_, cred := verified(t)
		env.clock.Advance(4*time.Hour + time.Second)
		_, err := env.guests.Session(ctx, cred)
		wantDenied(t, err)
	})
}

// TestGuestReachesNothingElse: the guest actor of a live session can read and complete its own
// task only — no list, release, history or other task.
func TestGuestReachesNothingElse(t *testing.T) {
	ctx := context.Background()
	env := newGuestEnv(t)
	task := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	other := testfactory.Task(ctx, t, env.store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	inv := testfactory.Invitation(ctx, t, env.store, task, nil)
	v, err := env.guests.Verify(ctx, inv.Token, inv.Code)
	if err != nil {
		t.Fatal(err)
	}
	a, err := env.guests.Session(ctx, v.Credential)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.tasks.Detail(ctx, a, task.ID); err != nil {
		t.Fatalf("the guest cannot read its task: %v", err)
	}
	cur, _ := env.store.Get(ctx, "t1", task.ID)
	if page, err := env.tasks.List(ctx, a, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAssigned}); err == nil && len(page.Items) > 0 {
		t.Errorf("the guest lists %d tasks", len(page.Items))
	}
	if _, err := env.tasks.Release(ctx, a, task.ID, tasks.ReleaseInput{Common: tasks.Common{ExpectedRevision: cur.Revision}}); err == nil {
		t.Error("the guest released its task")
	}
	if page, err := env.tasks.Events(ctx, a, task.ID, "", 50); err == nil && len(page.Items) > 0 {
		t.Errorf("the guest reads %d events", len(page.Items))
	}
	if _, err := env.tasks.Detail(ctx, a, other.ID); models.ErrorCode(err) != models.CodeNotFound {
		t.Errorf("another task: %v, want not-found", err)
	}
	if got, _ := env.store.Get(ctx, "t1", task.ID); got.Status != models.StatusAssigned || got.Revision != cur.Revision {
		t.Fatalf("task %s revision %d", got.Status, got.Revision)
	}
}

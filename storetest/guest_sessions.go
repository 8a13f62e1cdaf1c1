package storetest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// issueGuest issues a code invitation for the task, in the sibling group when one is given.
func issueGuest(t *testing.T, s store.Store, task models.Task, group string) testfactory.IssuedInvitation {
	t.Helper()
	return testfactory.Invitation(ctx(t), t, s, task, &testfactory.InvitationOpts{SiblingGroup: group})
}

// guestVerification is the store request of a code verification with a fresh credential.
func guestVerification(t *testing.T, token, code string) (store.GuestVerification, string) {
	t.Helper()
	credential, credentialHash, err := invitations.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return store.GuestVerification{
		TokenHash: invitations.HashSecret(token),
		Proof:     func(inv models.Invitation) bool { return invitations.CodeMatches(inv.ID, code, inv.CodeHash) },
		Session: func(now time.Time, inv models.Invitation) models.GuestSession {
			return models.GuestSession{ID: models.NewID(), Tenant: inv.Tenant, TaskID: inv.TaskID, InvitationID: inv.ID,
				TokenHash: credentialHash, Participant: models.GuestRef(inv.Tenant, inv.ID), Capabilities: inv.AllowedActions,
				IssuedAt: now, ExpiresAt: invitations.SessionExpiresAt(inv, now)}
		},
	}, credential
}

func mustInvitation(t *testing.T, s store.Store, tokenHash string) models.Invitation {
	t.Helper()
	inv, err := s.FindInvitationByTokenHash(ctx(t), tokenHash)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

// revokedEvents counts the task's invitation-revoked events for inv with reason.
func revokedEvents(t *testing.T, s store.Store, task models.Task, invID, reason string) int {
	t.Helper()
	n := 0
	for _, ev := range mustEvents(t, s, task.Tenant, task.ID) {
		meta := string(ev.Metadata)
		if ev.Type == models.EventInvitationRevoked && ev.Actor == nil && strings.Contains(meta, invID) && strings.Contains(meta, reason) {
			n++
		}
	}
	return n
}

func testGuestSessions(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})

	t.Run("OK", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		g := issueGuest(t, s, task, "")
		v, credential := guestVerification(t, g.Token, g.Code)
		sess, err := s.VerifyInvitation(ctx(t), v)
		if err != nil {
			t.Fatal(err)
		}
		guest := models.GuestRef("t1", g.ID)
		got := mustGet(t, s, "t1", task.ID)
		if got.Status != models.StatusAssigned || got.Assignee == nil || !got.Assignee.Same(guest) || got.Revision != task.Revision+1 {
			t.Fatalf("task %s assignee %+v revision %d", got.Status, got.Assignee, got.Revision)
		}
		inv := mustInvitation(t, s, g.TokenHash)
		if inv.Status != models.InvitationVerified || inv.VerifiedAt == nil {
			t.Fatalf("invitation %s verified at %v", inv.Status, inv.VerifiedAt)
		}
		evs := mustEvents(t, s, "t1", task.ID)
		if last := evs[len(evs)-1]; last.Type != models.EventInvitationVerified || last.Actor == nil || !last.Actor.Same(guest) {
			t.Fatalf("last event %+v", last)
		}
		access, err := s.GuestAccess(ctx(t), invitations.HashSecret(credential))
		if err != nil {
			t.Fatal(err)
		}
		if access.Session.ID != sess.ID || access.Invitation.ID != g.ID || access.Task.ID != task.ID ||
			!models.GuestSessionLive(access.Session, access.Invitation, access.Task, access.Now) {
			t.Fatalf("access %+v", access)
		}
		if !access.Session.ExpiresAt.After(access.Now) || access.Session.ExpiresAt.After(access.Now.Add(4*time.Hour+time.Minute)) {
			t.Fatalf("session expires %v (now %v)", access.Session.ExpiresAt, access.Now)
		}
		if _, err := s.GuestAccess(ctx(t), invitations.HashSecret(g.Token)); models.ErrorCode(err) != models.CodeNotFound {
			t.Fatalf("the invitation token opened a session: %v", err)
		}
		for what, n := range map[string]int{
			"session token hash holding the raw credential": h.containing(t, s, "user_task_guest_sessions", "token_hash", credential[:16]),
			"invitation token hash holding the raw token":   h.containing(t, s, "user_task_invitations", "token_hash", g.Token[:16]),
			"invitation code hash equal to the raw code":    h.records(t, s, "user_task_invitations", map[string]any{"code_hash": g.Code}),
		} {
			if n != 0 {
				t.Fatalf("%d records with a %s: a raw secret is stored", n, what)
			}
		}

		t.Run("ErrGuestDeniedTwice", func(t *testing.T) {
			v, _ := guestVerification(t, g.Token, g.Code)
			_, err := s.VerifyInvitation(ctx(t), v)
			wantIs(t, err, models.ErrGuestDenied)
		})
		t.Run("ConsumeEndsTheSession", func(t *testing.T) {
			if err := s.ConsumeInvitation(ctx(t), "t1", g.ID); err != nil {
				t.Fatal(err)
			}
			inv := mustInvitation(t, s, g.TokenHash)
			access, err := s.GuestAccess(ctx(t), invitations.HashSecret(credential))
			if err != nil || inv.Status != models.InvitationConsumed || inv.ConsumedAt == nil || access.Session.RevokedAt == nil {
				t.Fatalf("invitation %s, session revoked %v, %v", inv.Status, access.Session.RevokedAt, err)
			}
			if models.GuestSessionLive(access.Session, access.Invitation, access.Task, access.Now) {
				t.Fatal("a consumed invitation's session is live")
			}
		})
	})

	t.Run("ErrGuestDeniedUnknownToken", func(t *testing.T) {
		tok, _, _ := invitations.NewSecret()
		v, _ := guestVerification(t, tok, "123456")
		_, err := s.VerifyInvitation(ctx(t), v)
		wantCode(t, err, models.CodeGuestAccessDenied)
	})

	t.Run("FiveWrongCodesRevoke", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		g := issueGuest(t, s, task, "")
		wrong := "000000"
		if g.Code == wrong {
			wrong = "111111"
		}
		for i := 1; i <= models.MaxCodeAttempts; i++ {
			v, _ := guestVerification(t, g.Token, wrong)
			_, err := s.VerifyInvitation(ctx(t), v)
			wantIs(t, err, models.ErrGuestDenied)
			if got := mustInvitation(t, s, g.TokenHash); got.CodeAttempts != i {
				t.Fatalf("after %d wrong codes: %d attempts", i, got.CodeAttempts)
			}
		}
		v, _ := guestVerification(t, g.Token, g.Code)
		_, err := s.VerifyInvitation(ctx(t), v)
		wantIs(t, err, models.ErrGuestDenied)
		inv := mustInvitation(t, s, g.TokenHash)
		if inv.Status != models.InvitationRevoked || inv.RevokedAt == nil || inv.CodeAttempts != models.MaxCodeAttempts {
			t.Fatalf("invitation %s revoked at %v attempts %d", inv.Status, inv.RevokedAt, inv.CodeAttempts)
		}
		if n := revokedEvents(t, s, task, g.ID, models.RevokedAttemptsExhausted); n != 1 {
			t.Fatalf("%d attempts-exhausted events", n)
		}
		if got := mustGet(t, s, "t1", task.ID); got.Status != models.StatusAvailable || got.Assignee != nil {
			t.Fatalf("task %s assignee %+v", got.Status, got.Assignee)
		}
	})

	t.Run("ExpiredIsSet", func(t *testing.T) {
		clock := &testfactory.Clock{}
		s := h.open(t, Options{Clock: clock.Now})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		g := issueGuest(t, s, task, "")
		clock.Advance(25 * time.Hour)
		v, _ := guestVerification(t, g.Token, g.Code)
		_, err := s.VerifyInvitation(ctx(t), v)
		wantIs(t, err, models.ErrGuestDenied)
		if inv := mustInvitation(t, s, g.TokenHash); inv.Status != models.InvitationExpired {
			t.Fatalf("invitation %s, want expired", inv.Status)
		}
	})

	t.Run("ErrGuestDeniedTaskNotAvailable", func(t *testing.T) {
		ann := User("t1", "ann")
		// closeTask completes the task the way a finalization stores it.
		closeTask := func(t *testing.T, task models.Task) {
			_, err := s.Mutate(ctx(t), "t1", task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
				expected := cur.Revision
				cur.Status, cur.Revision, cur.LastEventSeq, cur.UpdatedAt = models.StatusCompleted, cur.Revision+1, cur.LastEventSeq+1, now
				cur.CompletedAt = &now
				cur.Outcome = models.Outcome{ActionKey: models.ActionComplete, CompletedBy: &ann}
				ev := models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq, Revision: cur.Revision,
					Type: models.EventCompleted, OccurredAt: now}
				return models.Change{Task: cur, ExpectedRevision: expected, Event: &ev}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name  string
			opts  TaskOpts
			after func(t *testing.T, task models.Task)
		}{
			{"Assigned", TaskOpts{CandidateUsers: []string{"ann"}, Assignee: &ann}, nil},
			{"Completed", TaskOpts{CandidateUsers: []string{"ann"}}, closeTask},
			{"Blocked", TaskOpts{CandidateUsers: []string{"ann"}, Health: models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed, Message: "form"}}, nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				task := CreateTask(t, s, c.opts)
				g := issueGuest(t, s, task, "")
				if c.after != nil {
					c.after(t, task)
				}
				before := mustGet(t, s, "t1", task.ID)
				v, _ := guestVerification(t, g.Token, g.Code)
				_, err := s.VerifyInvitation(ctx(t), v)
				wantCode(t, err, models.CodeGuestAccessDenied)
				if inv := mustInvitation(t, s, g.TokenHash); inv.Status != models.InvitationPending {
					t.Fatalf("invitation %s, want still pending", inv.Status)
				}
				if got := mustGet(t, s, "t1", task.ID); got.Revision != before.Revision || got.Status != before.Status {
					t.Fatalf("task changed: %s revision %d", got.Status, got.Revision)
				}
			})
		}
	})

	t.Run("SiblingsRevoked", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		group := models.NewID()
		a, b := issueGuest(t, s, task, group), issueGuest(t, s, task, group)
		loner := issueGuest(t, s, task, "")
		v, _ := guestVerification(t, a.Token, a.Code)
		if _, err := s.VerifyInvitation(ctx(t), v); err != nil {
			t.Fatal(err)
		}
		if inv := mustInvitation(t, s, b.TokenHash); inv.Status != models.InvitationRevoked || inv.RevokedAt == nil {
			t.Fatalf("sibling %s, want revoked", inv.Status)
		}
		if n := revokedEvents(t, s, task, b.ID, models.RevokedSiblingVerified); n != 1 {
			t.Fatalf("%d sibling-verified events", n)
		}
		if inv := mustInvitation(t, s, loner.TokenHash); inv.Status != models.InvitationPending {
			t.Fatalf("an invitation outside the group is %s", inv.Status)
		}
		v, _ = guestVerification(t, b.Token, b.Code)
		_, err := s.VerifyInvitation(ctx(t), v)
		wantIs(t, err, models.ErrGuestDenied)
	})

	t.Run("ConcurrentSiblingsOneSession", func(t *testing.T) {
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		group := models.NewID()
		const n = 4
		invs := make([]testfactory.IssuedInvitation, n)
		for i := range invs {
			invs[i] = issueGuest(t, s, task, group)
		}
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range invs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				v, _ := guestVerification(t, invs[i].Token, invs[i].Code)
				<-start
				_, errs[i] = s.VerifyInvitation(ctx(t), v)
			}(i)
		}
		close(start)
		wg.Wait()
		winners := 0
		for i, err := range errs {
			inv := mustInvitation(t, s, invs[i].TokenHash)
			switch {
			case err == nil:
				winners++
				if inv.Status != models.InvitationVerified {
					t.Errorf("winner %s", inv.Status)
				}
			case models.ErrorCode(err) == models.CodeGuestAccessDenied:
				if inv.Status != models.InvitationRevoked {
					t.Errorf("loser %s, want revoked", inv.Status)
				}
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		if winners != 1 {
			t.Fatalf("%d verifications succeeded, want 1", winners)
		}
		if got := h.records(t, s, "user_task_guest_sessions", map[string]any{"task_id": task.ID}); got != 1 {
			t.Fatalf("%d guest sessions, want 1", got)
		}
	})
	t.Run("AuditsClean", func(t *testing.T) {
		// Every state the real verification path left behind (verified, sessions, revoked
		// siblings, exhausted codes, expiry) must pass the audit.
		if _, findings, _ := AuditAll(t, s, store.AuditFilter{}, 50); len(findings) != 0 {
			t.Fatalf("the audit finds %d problems after real verifications: %+v", len(findings), findings)
		}
	})
}

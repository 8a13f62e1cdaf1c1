package invitations_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/store"
	"usertasks/testfactory"
)

// guestDefs are the invitation definitions of the test tasks: a code invitation for both
// actions, and a bearer-capable one for Approve only with a short lifetime.
var guestDefs = []models.InvitationDefinition{
	{VerifierName: "code", AllowedActions: []string{"Approve", "Reject"}, Lifetime: "P2D"},
	{VerifierName: "bearer", AllowedActions: []string{"Approve"}, BearerOnly: true, Lifetime: "PT6H"},
}

type issueFixture struct {
	store  store.Store
	clock  *testfactory.Clock
	issuer *invitations.Issuer
	boss   models.Actor
}

func newIssueFixture(t *testing.T, dispatcher string) issueFixture {
	t.Helper()
	clock := &testfactory.Clock{}
	s := testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{Clock: clock.Now})
	return issueFixture{store: s, clock: clock, boss: testfactory.Manager("t1", "boss"),
		issuer: invitations.NewIssuer(s, invitations.IssuerOptions{Dispatcher: dispatcher, Now: func() time.Time { return clock.Now(time.Now()) }})}
}

// guestTask projects a task with the guest definitions (nil defs: none).
func (f issueFixture) guestTask(t *testing.T, defs []models.InvitationDefinition, o *testfactory.TaskOpts) models.Task {
	t.Helper()
	if o == nil {
		o = &testfactory.TaskOpts{}
	}
	o.Candidates = append(o.Candidates, "ann")
	o.Actions = []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}}
	o.Projection = func(p *models.Projection) { p.Invitations = defs }
	return testfactory.Task(context.Background(), t, f.store, o)
}

func one(i int) *int { return &i }

func TestIssueStoresOnlyHashesAndSealsTheSecretsForTheDispatcher(t *testing.T) {
	ctx := context.Background()
	f := newIssueFixture(t, "dev-mailbox")
	task := f.guestTask(t, guestDefs, nil)
	got, err := f.issuer.Issue(ctx, f.boss, task.ID, invitations.IssueInput{Definition: one(0), Recipients: []string{"Guest One"}})
	if err != nil || len(got) != 1 {
		t.Fatalf("issue: %+v %v", got, err)
	}
	inv := got[0]
	if inv.Status != invitations.ListIssued || inv.VerifierName != "code" || inv.SiblingGroupID != "" || inv.Recipient != "Guest One" ||
		strings.Join(inv.AllowedActions, ",") != "Approve,Reject" || !inv.Revocable || inv.IssuedBy == nil || inv.IssuedBy.ID != "boss" {
		t.Fatalf("issued %+v", inv)
	}
	if life := inv.ExpiresAt.Sub(inv.IssuedAt); life != 48*time.Hour {
		t.Fatalf("lifetime %v, want the definition's 48 h", life)
	}
	rows, err := f.store.ClaimDeliveries(ctx, "test", 10, time.Minute)
	if err != nil || len(rows) != 1 {
		t.Fatalf("deliveries %d %v", len(rows), err)
	}
	d := rows[0]
	if d.InvitationID != inv.ID || d.Dispatcher != "dev-mailbox" || d.IdempotencyKey != inv.ID || !d.ExpiresAt.Equal(inv.ExpiresAt) {
		t.Fatalf("delivery %+v", d)
	}
	p, err := invitations.DecodePayload(d.Payload)
	if err != nil || p.Recipient != "Guest One" || len(p.Code) != 6 {
		t.Fatalf("payload %v", err)
	}
	stored, err := f.store.FindInvitationByTokenHash(ctx, invitations.HashSecret(p.Token))
	if err != nil || stored.ID != inv.ID || !invitations.CodeMatches(inv.ID, p.Code, stored.CodeHash) {
		t.Fatalf("the payload's token or code does not match the stored hashes: %v", err)
	}
	evs, _ := f.store.Events(ctx, "t1", task.ID, 0, 10)
	last := evs[len(evs)-1]
	if last.Type != models.EventInvitationIssued || !strings.Contains(string(last.Metadata), inv.ID) {
		t.Fatalf("event %+v", last)
	}
	assertNoSecretStored(t, f.store, p.Token, p.Code)
}

// assertNoSecretStored scans every text column of every user_task_* table for the raw secrets.
func assertNoSecretStored(t *testing.T, s store.Store, secrets ...string) {
	t.Helper()
	db, err := s.(*repository.Store).DB()
	if err != nil {
		t.Fatal(err)
	}
	tables, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'user_task%'")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tables.Next() {
		var n string
		_ = tables.Scan(&n)
		names = append(names, n)
	}
	tables.Close()
	if len(names) < 5 {
		t.Fatalf("only tables %v", names)
	}
	for _, name := range names {
		rows, err := db.Query("SELECT * FROM " + name)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]sql.RawBytes, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				for _, secret := range secrets {
					if secret != "" && strings.Contains(string(v), secret) {
						t.Errorf("%s.%s holds a raw secret", name, cols[i])
					}
				}
			}
		}
		rows.Close()
	}
}

func TestIssueForSeveralRecipientsFormsASiblingGroup(t *testing.T) {
	f := newIssueFixture(t, "smtp")
	task := f.guestTask(t, guestDefs, nil)
	got, err := f.issuer.Issue(context.Background(), f.boss, task.ID, invitations.IssueInput{VerifierName: "bearer",
		Recipients: []string{"a@example.org", " b@example.org ", "c@example.org"}})
	if err != nil || len(got) != 3 {
		t.Fatalf("issue: %d %v", len(got), err)
	}
	group := got[0].SiblingGroupID
	for i, inv := range got {
		if group == "" || inv.SiblingGroupID != group || inv.VerifierName != "bearer" || !inv.BearerOnly || inv.ID == got[(i+1)%3].ID {
			t.Fatalf("invitation %d: %+v", i, inv)
		}
	}
	if got[1].Recipient != "b@example.org" {
		t.Fatalf("recipient %q was not trimmed", got[1].Recipient)
	}
}

func TestIssueReplaysAnOperationIDOfTheSameActor(t *testing.T) {
	ctx := context.Background()
	f := newIssueFixture(t, "webhook")
	task := f.guestTask(t, guestDefs, nil)
	in := invitations.IssueInput{Definition: one(0), Recipients: []string{"x", "y"}, AllowedActions: []string{"approve"}, OperationID: "op-1"}
	first, err := f.issuer.Issue(ctx, f.boss, task.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.issuer.Issue(ctx, f.boss, task.ID, in)
	if err != nil || len(again) != 2 || again[0].ID != first[0].ID || again[1].ID != first[1].ID || again[0].SiblingGroupID != first[0].SiblingGroupID {
		t.Fatalf("replay %+v %v", again, err)
	}
	if all, _ := f.store.Invitations(ctx, "t1", task.ID); len(all) != 2 {
		t.Fatalf("%d invitations after a replay", len(all))
	}
	changed := in
	changed.Recipients = []string{"x", "z"}
	_, err = f.issuer.Issue(ctx, f.boss, task.ID, changed)
	if models.ErrorCode(err) != models.CodeIdempotencyConflict {
		t.Fatalf("a changed request under the same id: %v", err)
	}
	other, err := f.issuer.Issue(ctx, testfactory.Manager("t1", "other-boss"), task.ID, in)
	if err != nil || other[0].ID == first[0].ID {
		t.Fatalf("another manager's operation id replayed the first: %v", err)
	}
}

func TestIssueRefusals(t *testing.T) {
	ctx := context.Background()
	f := newIssueFixture(t, "smtp")
	task := f.guestTask(t, guestDefs, nil)
	plain := f.guestTask(t, nil, nil)
	past := time.Now().Add(-time.Hour)
	due := f.guestTask(t, guestDefs, &testfactory.TaskOpts{DueAt: &past})
	closed := testfactory.Finalize(ctx, t, f.store, f.guestTask(t, guestDefs, nil))
	noInvite := testfactory.Manager("t1", "boss")
	noInvite.Permissions = []string{models.PermView, models.PermAssign}
	ok := invitations.IssueInput{Definition: one(0), Recipients: []string{"guest@example.org"}}
	with := func(change func(*invitations.IssueInput)) invitations.IssueInput {
		in := ok
		change(&in)
		return in
	}
	cases := []struct {
		name  string
		actor models.Actor
		task  string
		in    invitations.IssueInput
		want  models.Code
	}{
		{"ErrForbidden_Candidate", testfactory.Worker("t1", "ann"), task.ID, ok, models.CodeForbidden},
		{"ErrForbidden_NoInvitePermission", noInvite, task.ID, ok, models.CodeForbidden},
		{"ErrNotFound_Stranger", testfactory.Worker("t1", "zed"), task.ID, ok, models.CodeNotFound},
		{"ErrNotFound_OtherTenantManager", testfactory.Manager("t2", "boss"), task.ID, ok, models.CodeNotFound},
		{"ErrNotFound_Guest", testfactory.Guest("t1", models.NewID(), task.ID, "Approve"), task.ID, ok, models.CodeNotFound},
		{"ErrNotFound_HostileID", f.boss, task.ID + "/../x?y#z\x00", ok, models.CodeNotFound},
		{"ErrNotFound_Unknown", f.boss, models.NewID(), ok, models.CodeNotFound},
		{"ErrTerminal", f.boss, closed.ID, ok, models.CodeTerminal},
		{"ErrNoDefinitions", f.boss, plain.ID, ok, models.CodeValidationFailed},
		{"ErrUnknownDefinition", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Definition = one(7) }), models.CodeValidationFailed},
		{"ErrUnknownVerifierName", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Definition, in.VerifierName = nil, "sms" }), models.CodeValidationFailed},
		{"ErrBroaderActions", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Definition, in.AllowedActions = one(1), []string{"Reject"} }), models.CodeValidationFailed},
		{"ErrLongerLifetime", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Lifetime = "P3D" }), models.CodeValidationFailed},
		{"ErrBadLifetime", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Lifetime = "3 days" }), models.CodeValidationFailed},
		{"ErrBearerNotAllowed", f.boss, task.ID, with(func(in *invitations.IssueInput) { yes := true; in.BearerOnly = &yes }), models.CodeValidationFailed},
		{"ErrNotAnEmail", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = []string{"Guest One"} }), models.CodeValidationFailed},
		{"ErrDisplayNameEmail", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = []string{"G <g@example.org>"} }), models.CodeValidationFailed},
		{"ErrControlCharacters", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = []string{"g@example.org\r\nBcc: x@evil.test"} }), models.CodeValidationFailed},
		{"ErrTooLong", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = []string{strings.Repeat("a", 250) + "@example.org"} }), models.CodeValidationFailed},
		{"ErrNoRecipient", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = []string{" "} }), models.CodeValidationFailed},
		{"ErrTwice", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = []string{"g@example.org", "G@example.org"} }), models.CodeValidationFailed},
		{"ErrTooMany", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.Recipients = make([]string, 21) }), models.CodeValidationFailed},
		{"ErrBadOperationID", f.boss, task.ID, with(func(in *invitations.IssueInput) { in.OperationID = "op\x07" }), models.CodeValidationFailed},
		{"ErrDueAlready", f.boss, due.ID, ok, models.CodeValidationFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.issuer.Issue(ctx, c.actor, c.task, c.in)
			if code := models.ErrorCode(err); code != c.want || len(got) != 0 {
				t.Fatalf("got %d invitations, error %v (%q), want %q", len(got), err, code, c.want)
			}
		})
	}
	if all, _ := f.store.Invitations(ctx, "t1", task.ID); len(all) != 0 {
		t.Fatalf("refused requests issued %d invitations", len(all))
	}
	t.Run("ErrNoDispatcher", func(t *testing.T) {
		none := invitations.NewIssuer(f.store, invitations.IssuerOptions{})
		_, err := none.Issue(ctx, f.boss, task.ID, invitations.IssueInput{Definition: one(0), Recipients: []string{"x"}})
		if models.ErrorCode(err) != models.CodeInvitationsUnavailable {
			t.Fatalf("error %v", err)
		}
		if _, err := none.Issue(ctx, testfactory.Worker("t1", "ann"), task.ID, ok); !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("a non-manager learned the configuration: %v", err)
		}
	})
}

func TestRevokeAndListShowEveryStatus(t *testing.T) {
	ctx := context.Background()
	f := newIssueFixture(t, "dev-mailbox")
	task := f.guestTask(t, guestDefs, nil)
	issued, err := f.issuer.Issue(ctx, f.boss, task.ID, invitations.IssueInput{Definition: one(0),
		Recipients: []string{"to-revoke", "dispatched", "failed", "waiting"}})
	if err != nil {
		t.Fatal(err)
	}
	byRecipient := map[string]string{}
	for _, inv := range issued {
		byRecipient[inv.Recipient] = inv.ID
	}
	rows, _ := f.store.ClaimDeliveries(ctx, "test", 10, time.Minute)
	for _, d := range rows {
		switch d.InvitationID {
		case byRecipient["dispatched"]:
			if err := f.store.AckDelivery(ctx, d); err != nil {
				t.Fatal(err)
			}
		case byRecipient["failed"]:
			if _, err := f.store.RetryDelivery(ctx, d, 0, "smtp-550", true); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Run("ErrForbidden_Candidate", func(t *testing.T) {
		_, err := f.issuer.Revoke(ctx, testfactory.Worker("t1", "ann"), task.ID, byRecipient["to-revoke"])
		if !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("error %v", err)
		}
		if _, err := f.issuer.List(ctx, testfactory.Worker("t1", "ann"), task.ID); !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("list: %v", err)
		}
		if _, err := f.issuer.List(ctx, testfactory.Manager("t2", "boss"), task.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("list for another tenant: %v", err)
		}
	})
	t.Run("OK", func(t *testing.T) {
		got, err := f.issuer.Revoke(ctx, f.boss, task.ID, byRecipient["to-revoke"])
		if err != nil || got.Status != invitations.ListRevoked || got.RevokedAt == nil || got.Revocable {
			t.Fatalf("revoke: %+v %v", got, err)
		}
		evs, _ := f.store.Events(ctx, "t1", task.ID, 0, 20)
		if last := evs[len(evs)-1]; last.Type != models.EventInvitationRevoked || last.Actor == nil || last.Actor.ID != "boss" {
			t.Fatalf("last event %+v", last)
		}
	})
	t.Run("ErrNotRevocable", func(t *testing.T) {
		_, err := f.issuer.Revoke(ctx, f.boss, task.ID, byRecipient["to-revoke"])
		if models.ErrorCode(err) != models.CodeInvitationNotRevocable {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, id := range []string{models.NewID(), "", "a/b", "x y", "\x00", "ü?#"} {
			if _, err := f.issuer.Revoke(ctx, f.boss, task.ID, id); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("revoke %q: %v", id, err)
			}
		}
	})
	t.Run("List", func(t *testing.T) {
		listing, err := f.issuer.List(ctx, f.boss, task.ID)
		list := listing.Items
		if err != nil || len(list) != 4 || len(listing.Definitions) != 2 {
			t.Fatalf("list %d %v", len(list), err)
		}
		want := map[string]invitations.ListStatus{"to-revoke": invitations.ListRevoked, "dispatched": invitations.ListDispatched,
			"failed": invitations.ListFailed, "waiting": invitations.ListIssued}
		for _, inv := range list {
			if inv.Status != want[inv.Recipient] || inv.Delivery == nil {
				t.Errorf("%s: %s, delivery %+v", inv.Recipient, inv.Status, inv.Delivery)
			}
			if inv.Recipient == "failed" && (inv.Delivery.Attempts != 1 || inv.Delivery.LastError != "smtp-550") {
				t.Errorf("failed delivery %+v", inv.Delivery)
			}
			if inv.Recipient == "to-revoke" && inv.Delivery.State != models.DeliverySettled {
				t.Errorf("the revoked invitation's delivery is %s", inv.Delivery.State)
			}
		}
	})
	t.Run("ExpiredRefusesRevocation", func(t *testing.T) {
		f.clock.Advance(49 * time.Hour)
		listing, _ := f.issuer.List(ctx, f.boss, task.ID)
		for _, inv := range listing.Items {
			if inv.Recipient != "to-revoke" && (inv.Status != invitations.ListExpired || inv.Revocable) {
				t.Errorf("%s: %s after its expiry", inv.Recipient, inv.Status)
			}
		}
		_, err := f.issuer.Revoke(ctx, f.boss, task.ID, byRecipient["waiting"])
		if models.ErrorCode(err) != models.CodeInvitationNotRevocable {
			t.Fatalf("revoking an expired invitation: %v", err)
		}
	})
}

package testfactory

import (
	"context"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/store"
)

// InvitationOpts describe a guest invitation to issue; zero values take defaults.
type InvitationOpts struct {
	SiblingGroup string
	// Bearer issues a bearer invitation (the link alone, BearerOnly); else a code invitation.
	Bearer         bool
	AllowedActions []string      // default Complete
	Lifetime       time.Duration // default 24 h
	Recipient      string        // default guest@example.org
}

// IssuedInvitation is a stored invitation with the secrets only its recipient holds.
type IssuedInvitation struct {
	models.Invitation
	Token, Code string
}

// InvitationIssuer is the store method Invitation calls, on any provider.
type InvitationIssuer interface {
	IssueInvitation(ctx context.Context, tenant, taskID string, build store.IssueFunc) (models.Invitation, error)
}

// Invitation issues a guest invitation for task as a manager would, through the store's
// IssueInvitation, with a real token and code (invitations.NewSecret, NewCode).
func Invitation(ctx context.Context, t testing.TB, s InvitationIssuer, task models.Task, o *InvitationOpts) IssuedInvitation {
	t.Helper()
	if o == nil {
		o = &InvitationOpts{}
	}
	actions, life := o.AllowedActions, o.Lifetime
	if len(actions) == 0 {
		actions = []string{models.ActionComplete}
	}
	if life == 0 {
		life = 24 * time.Hour
	}
	recipient := o.Recipient
	if recipient == "" {
		recipient = "guest@example.org"
	}
	token, tokenHash, err := invitations.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	var code string
	inv, err := s.IssueInvitation(ctx, task.Tenant, task.ID, func(now time.Time, cur models.Task) (models.Invitation, models.Delivery, models.Event, error) {
		inv := models.Invitation{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, SiblingGroupID: o.SiblingGroup,
			VerifierName: "code", AllowedActions: actions, Recipient: recipient, TokenHash: tokenHash,
			Status: models.InvitationPending, IssuedAt: now, ExpiresAt: now.Add(life), UpdatedAt: now}
		if o.Bearer {
			inv.VerifierName, inv.BearerOnly = "bearer", true
		} else {
			var codeHash string
			if code, codeHash, err = invitations.NewCode(inv.ID); err != nil {
				return inv, models.Delivery{}, models.Event{}, err
			}
			inv.CodeHash = codeHash
		}
		payload, err := invitations.Payload{Token: token, Code: code, Recipient: inv.Recipient}.Encode()
		if err != nil {
			return inv, models.Delivery{}, models.Event{}, err
		}
		d := models.Delivery{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, InvitationID: inv.ID, Dispatcher: "dev-mailbox",
			Payload: payload, State: models.DeliveryPending, AvailableAt: now, ExpiresAt: inv.ExpiresAt,
			IdempotencyKey: "issue:" + inv.ID, CreatedAt: now, UpdatedAt: now}
		ev, err := models.InvitationEvent(cur, Manager(cur.Tenant, "boss"), models.EventInvitationIssued, inv.ID, now)
		return inv, d, ev, err
	})
	if err != nil {
		t.Fatalf("testfactory: issue invitation: %v", err)
	}
	return IssuedInvitation{Invitation: inv, Token: token, Code: code}
}

package storekit

import (
	"encoding/json"
	"errors"
	"fmt"

	"usertasks/models"
)

// ColRecipient is the sealed field of an invitation's recipient: only the token's and the
// code's hashes are stored in the clear.
const ColRecipient = "recipient_enc"

// InvitationRow encodes inv, its recipient sealed.
func (c Codec) InvitationRow(inv *models.Invitation) (InvitationRow, error) {
	actions, err := json.Marshal(inv.AllowedActions)
	if err != nil {
		return InvitationRow{}, err
	}
	by := RefColumnsOf(inv.IssuedBy)
	r := InvitationRow{
		ID: inv.ID, TenantID: inv.Tenant, TaskID: inv.TaskID, SiblingGroupID: Opt(inv.SiblingGroupID),
		VerifierName: inv.VerifierName, AllowedActions: string(actions), BearerOnly: inv.BearerOnly,
		TokenHash: inv.TokenHash, CodeHash: Opt(inv.CodeHash), CodeAttempts: inv.CodeAttempts, Status: string(inv.Status),
		IssuedByProvider: by.Provider, IssuedByType: by.Type, IssuedByID: by.ID,
		IssuedAt: c.Time(inv.IssuedAt), ExpiresAt: c.Time(inv.ExpiresAt), DispatchedAt: c.TimePtr(inv.DispatchedAt),
		VerifiedAt: c.TimePtr(inv.VerifiedAt), ConsumedAt: c.TimePtr(inv.ConsumedAt), RevokedAt: c.TimePtr(inv.RevokedAt),
		UpdatedAt: c.Time(inv.UpdatedAt),
	}
	r.RecipientEnc, err = c.Sealer.Seal(inv.ID, ColRecipient, []byte(inv.Recipient))
	return r, err
}

// Invitation decodes r, its recipient opened; what does not decode is a models.CorruptError
// naming the task.
func (c Codec) Invitation(r *InvitationRow) (models.Invitation, error) {
	inv := models.Invitation{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, SiblingGroupID: Str(r.SiblingGroupID),
		VerifierName: r.VerifierName, BearerOnly: r.BearerOnly, TokenHash: r.TokenHash, CodeHash: Str(r.CodeHash),
		CodeAttempts: r.CodeAttempts, Status: models.InvitationStatus(r.Status),
		IssuedBy: RefFrom(r.TenantID, r.IssuedByProvider, r.IssuedByType, r.IssuedByID, nil),
		IssuedAt: c.Time(r.IssuedAt), ExpiresAt: c.Time(r.ExpiresAt), DispatchedAt: c.TimePtr(r.DispatchedAt),
		VerifiedAt: c.TimePtr(r.VerifiedAt), ConsumedAt: c.TimePtr(r.ConsumedAt), RevokedAt: c.TimePtr(r.RevokedAt),
		UpdatedAt: c.Time(r.UpdatedAt),
	}
	if err := json.Unmarshal([]byte(r.AllowedActions), &inv.AllowedActions); err != nil {
		return inv, &models.CorruptError{TaskID: r.TaskID, Reason: "invitation allowed actions do not decode"}
	}
	recipient, err := c.Sealer.Open(r.TaskID, r.ID, ColRecipient, r.RecipientEnc)
	inv.Recipient = string(recipient)
	return inv, err
}

// CheckInvitationRoom refuses another invitation to a task that holds held already: at most
// models.MaxInvitationsPerTask.
func CheckInvitationRoom(held int64) error {
	if held >= models.MaxInvitationsPerTask {
		return models.InvalidField("invitations", fmt.Sprintf("a task holds at most %d invitations", models.MaxInvitationsPerTask))
	}
	return nil
}

// CheckIssued refuses what a store.IssueFunc built for task t (as it was before, its last
// event sequence not yet raised) unless the invitation and its delivery name t and the event
// is t's next (programming errors).
func CheckIssued(t models.Task, inv models.Invitation, d models.Delivery, ev models.Event) error {
	if inv.Tenant != t.Tenant || inv.TaskID != t.ID || d.InvitationID != inv.ID || d.Tenant != t.Tenant || d.TaskID != t.ID {
		return errors.New("storekit: invitation rows name another task")
	}
	if ev.Seq != t.LastEventSeq+1 || ev.TaskID != t.ID {
		return errors.New("storekit: an appended event must follow the task's sequence")
	}
	return nil
}

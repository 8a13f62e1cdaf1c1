package storekit

import (
	"encoding/json"
	"errors"
	"fmt"

	"usertasks/models"
)

// GuestSessionRow encodes gs.
func (c Codec) GuestSessionRow(gs *models.GuestSession) (GuestSessionRow, error) {
	caps, err := json.Marshal(gs.Capabilities)
	if err != nil {
		return GuestSessionRow{}, err
	}
	return GuestSessionRow{
		ID: gs.ID, TenantID: gs.Tenant, TaskID: gs.TaskID, InvitationID: gs.InvitationID, TokenHash: gs.TokenHash,
		ParticipantProvider: gs.Participant.Provider, ParticipantID: gs.Participant.ID, Capabilities: string(caps),
		IssuedAt: c.Time(gs.IssuedAt), ExpiresAt: c.Time(gs.ExpiresAt), RevokedAt: c.TimePtr(gs.RevokedAt),
	}, nil
}

// GuestSession decodes r: its participant is the guest user "Guest" of the session's tenant.
func (c Codec) GuestSession(r *GuestSessionRow) (models.GuestSession, error) {
	gs := models.GuestSession{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, InvitationID: r.InvitationID, TokenHash: r.TokenHash,
		Participant: models.ParticipantRef{Tenant: r.TenantID, Provider: r.ParticipantProvider, Type: models.UserParticipant,
			ID: r.ParticipantID, DisplayName: "Guest"},
		IssuedAt: c.Time(r.IssuedAt), ExpiresAt: c.Time(r.ExpiresAt), RevokedAt: c.TimePtr(r.RevokedAt),
	}
	if err := json.Unmarshal([]byte(r.Capabilities), &gs.Capabilities); err != nil {
		return gs, &models.CorruptError{TaskID: r.TaskID, Reason: "guest session capabilities do not decode"}
	}
	return gs, nil
}

// CheckGuestSession refuses a session a verification made for inv that does not name it, or
// has no credential hash (a programming error).
func CheckGuestSession(session models.GuestSession, inv models.Invitation) error {
	if session.Tenant != inv.Tenant || session.TaskID != inv.TaskID || session.InvitationID != inv.ID || session.TokenHash == "" {
		return errors.New("storekit: a guest session must name its invitation")
	}
	return nil
}

// VerificationResult is what a verification attempt answers, from the error of its write and
// whether the write recorded a refusal (denied): a missing row or a lost race is a refusal
// like any other, models.ErrGuestDenied, and so is a recorded one.
func VerificationResult(err error, denied bool) error {
	switch {
	case errors.Is(err, models.ErrNotFound) || models.ErrorCode(err) == models.CodeRevisionConflict:
		return fmt.Errorf("%w: %v", models.ErrGuestDenied, err)
	case err != nil:
		return err
	case denied:
		return models.ErrGuestDenied
	}
	return nil
}

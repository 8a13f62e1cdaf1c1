package invitations

import (
	"context"
	"errors"
	"fmt"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// Verifier names (SPEC 6).
const (
	// VerifierCode asks for the 6-digit code delivered with the link; MaxCodeAttempts wrong
	// codes revoke the invitation.
	VerifierCode = "code"
	// VerifierBearer lets the link alone verify; only for an invitation whose definition opts
	// in with bearerOnly.
	VerifierBearer = "bearer"
)

// GuestStore is what Guests needs from the store (a subset of store.Store).
type GuestStore interface {
	FindInvitationByTokenHash(ctx context.Context, tokenHash string) (models.Invitation, error)
	VerifyInvitation(ctx context.Context, v store.GuestVerification) (models.GuestSession, error)
	GuestAccess(ctx context.Context, tokenHash string) (store.GuestAccess, error)
	ConsumeInvitation(ctx context.Context, tenant, invitationID string) error
}

// Guests verifies invitations and keeps guest sessions. Every refusal, whatever its reason, is
// models.ErrGuestDenied: an anonymous caller learns nothing about tokens it does not hold.
type Guests struct {
	store GuestStore
}

// NewGuests builds Guests on the store.
func NewGuests(store GuestStore) *Guests { return &Guests{store: store} }

// Challenge is what the guest must present to verify an invitation.
type Challenge struct {
	ChallengeType string // VerifierCode or VerifierBearer
	Prompt        string
	RequiresCode  bool
}

var (
	codeChallenge   = Challenge{ChallengeType: VerifierCode, Prompt: "Enter the 6-digit code sent with your invitation.", RequiresCode: true}
	bearerChallenge = Challenge{ChallengeType: VerifierBearer, Prompt: "Continue to open the task.", RequiresCode: false}
)

// Challenge answers what verifying token takes. Unknown, malformed, used, revoked and expired
// tokens all answer like a code invitation, after the same one store lookup a valid token
// takes, so the answer tells nothing about the token. A store failure is an error.
func (g *Guests) Challenge(ctx context.Context, token string) (Challenge, error) {
	if !PlausibleSecret(token) {
		return codeChallenge, nil
	}
	inv, err := g.store.FindInvitationByTokenHash(ctx, HashSecret(token))
	switch {
	case errors.Is(err, models.ErrNotFound):
		return codeChallenge, nil
	case err != nil:
		return Challenge{}, err
	case bearerAllowed(inv) && inv.Status != models.InvitationVerified && inv.Status != models.InvitationConsumed:
		return bearerChallenge, nil
	}
	return codeChallenge, nil
}

// Verification is a successful verification: the guest session's credential (shown once, only
// its hash is stored), the task it opens and when it ends.
type Verification struct {
	Credential string
	TaskID     string
	ExpiresAt  time.Time
}

// Verify verifies token with code (ignored for a bearer invitation). The first success assigns
// the task to the guest and opens the guest session (store.Guests.VerifyInvitation); every
// failure is models.ErrGuestDenied. Malformed tokens are refused before the store is asked.
func (g *Guests) Verify(ctx context.Context, token, code string) (Verification, error) {
	if !PlausibleSecret(token) {
		return Verification{}, models.ErrGuestDenied
	}
	credential, credentialHash, err := NewSecret()
	if err != nil {
		return Verification{}, err
	}
	sess, err := g.store.VerifyInvitation(ctx, store.GuestVerification{
		TokenHash: HashSecret(token),
		Proof:     func(inv models.Invitation) bool { return proofHolds(inv, code) },
		Session: func(now time.Time, inv models.Invitation) models.GuestSession {
			return models.GuestSession{ID: models.NewID(), Tenant: inv.Tenant, TaskID: inv.TaskID, InvitationID: inv.ID,
				TokenHash: credentialHash, Participant: models.GuestRef(inv.Tenant, inv.ID),
				Capabilities: append([]string(nil), inv.AllowedActions...), IssuedAt: now, ExpiresAt: SessionExpiresAt(inv, now)}
		},
	})
	if err != nil {
		if errors.Is(err, models.ErrGuestDenied) && g.usedWith(ctx, token, code) {
			return Verification{}, models.ErrGuestLinkUsed
		}
		return Verification{}, denied(err)
	}
	return Verification{Credential: credential, TaskID: sess.TaskID, ExpiresAt: sess.ExpiresAt}, nil
}

// usedWith reports whether token's invitation was used already (verified or consumed) and code
// is its right proof: the one refusal that may say why, to the person who holds the code. It
// answers false for anything else, a store failure included; a wrong code learns nothing. The
// store refuses a used invitation before it weighs the proof, so no attempt is counted here;
// guessing codes of a used link is bounded by the verification rate limit and wins nothing.
func (g *Guests) usedWith(ctx context.Context, token, code string) bool {
	inv, err := g.store.FindInvitationByTokenHash(ctx, HashSecret(token))
	if err != nil {
		return false
	}
	return (inv.Status == models.InvitationVerified || inv.Status == models.InvitationConsumed) && proofHolds(inv, code)
}

// bearerAllowed reports whether the link alone verifies inv: a bearer invitation whose
// definition opted in.
func bearerAllowed(inv models.Invitation) bool {
	return inv.VerifierName == VerifierBearer && inv.BearerOnly
}

// proofHolds decides a verification attempt on the invitation as locked by the store.
func proofHolds(inv models.Invitation, code string) bool {
	switch {
	case bearerAllowed(inv):
		return true
	case inv.VerifierName == VerifierCode && inv.CodeHash != "":
		return plausibleCode(code) && CodeMatches(inv.ID, code, inv.CodeHash)
	}
	return false // an unknown verifier, or bearer without the opt-in, never verifies
}

// plausibleCode reports whether s has the shape of a code: codeDigits ASCII digits.
func plausibleCode(s string) bool {
	if len(s) != codeDigits {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// denied keeps the refusals generic: a refusal of the domain (not found, conflict, invalid)
// becomes models.ErrGuestDenied, its reason kept in the error text for the log only; the
// database being busy, corrupt or failing stays what it is.
func denied(err error) error {
	code := models.ErrorCode(err)
	switch {
	case errors.Is(err, models.ErrGuestDenied), code == "", code == models.CodeDatabaseBusy, code == models.CodeCorruptStore:
		return err
	}
	return fmt.Errorf("%w: %v", models.ErrGuestDenied, err)
}

package invitations

import (
	"context"

	"usertasks/models"
)

// Session resolves a guest session credential to the guest actor it speaks for: its task only,
// read and complete with the invitation's allowed actions. It is judged on live state at every
// call (models.GuestSessionLive, with the database clock): the session neither revoked nor
// expired, its invitation still verified (not revoked), the task still Assigned to this guest.
// Anything else is models.ErrGuestDenied. The JSON API passes the credential of an
// `Authorization: UserTaskSession` header; a page may keep it in a cookie.
func (g *Guests) Session(ctx context.Context, credential string) (models.Actor, error) {
	if !PlausibleSecret(credential) {
		return models.Actor{}, models.ErrGuestDenied
	}
	access, err := g.store.GuestAccess(ctx, HashSecret(credential))
	if err != nil {
		return models.Actor{}, denied(err)
	}
	if !models.GuestSessionLive(access.Session, access.Invitation, access.Task, access.Now) {
		return models.Actor{}, models.ErrGuestDenied
	}
	return models.GuestActor(access.Session), nil
}

// Done resolves the credential of a guest session whose guest completed its task to that task
// (without protected content), for the page that says what the guest answered: only while
// models.GuestDoneVisible holds, on live state. Anything else is models.ErrGuestDenied.
func (g *Guests) Done(ctx context.Context, credential string) (models.Task, error) {
	if !PlausibleSecret(credential) {
		return models.Task{}, models.ErrGuestDenied
	}
	access, err := g.store.GuestAccess(ctx, HashSecret(credential))
	if err != nil {
		return models.Task{}, denied(err)
	}
	if !models.GuestDoneVisible(access.Session, access.Invitation, access.Task, access.Now) {
		return models.Task{}, models.ErrGuestDenied
	}
	return access.Task, nil
}

// Completed records that the guest a completed its task: the invitation becomes consumed and its
// sessions end. Call it after the completion was accepted.
func (g *Guests) Completed(ctx context.Context, a models.Actor) error {
	if a.Guest == nil {
		return models.ErrGuestDenied
	}
	return g.store.ConsumeInvitation(ctx, a.Tenant, a.Guest.InvitationID)
}

package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/invitations"
	"usertasks/models"
)

// The guest invitations API (SPEC 6): managers issue, list and revoke a task's one-time guest
// links. No answer ever carries a token, a code or their hashes.
//
//	POST   /api/v1/user-tasks/{id}/invitations                 201 {items}: one per recipient
//	GET    /api/v1/user-tasks/{id}/invitations                 200 {items}: newest first
//	DELETE /api/v1/user-tasks/{id}/invitations/{invitationId}  204: revoked; its guest session ends

// InvitationService is what the API and the task page need to manage guest invitations;
// *invitations.Issuer satisfies it.
type InvitationService interface {
	Issue(ctx context.Context, a models.Actor, taskID string, in invitations.IssueInput) ([]invitations.IssuedInvitation, error)
	List(ctx context.Context, a models.Actor, taskID string) (invitations.Listing, error)
	Revoke(ctx context.Context, a models.Actor, taskID, invitationID string) (invitations.IssuedInvitation, error)
	// Dispatcher names the dispatcher of new invitations; empty when none is configured.
	Dispatcher() string
}

// invitationsAPI holds the invitation handlers.
type invitationsAPI struct{ invites InvitationService }

// registerInvitationsAPI adds the invitation routes to the API group.
func registerInvitationsAPI(v1 *echo.Group, invites InvitationService, authed echo.MiddlewareFunc) {
	h := &invitationsAPI{invites: invites}
	v1.POST("/user-tasks/:id/invitations", h.issueInvitations, authed)
	v1.GET("/user-tasks/:id/invitations", h.listInvitations, authed)
	v1.DELETE("/user-tasks/:id/invitations/:invitationId", h.revokeInvitation, authed)
}

// issueInvitationsRequest is the body of POST /api/v1/user-tasks/:id/invitations: one
// recipient, or several that form a sibling group.
type issueInvitationsRequest struct {
	DefinitionIndex *int     `json:"definitionIndex"`
	VerifierName    string   `json:"verifierName"`
	Recipient       *string  `json:"recipient"`
	Recipients      []string `json:"recipients"`
	AllowedActions  []string `json:"allowedActions"`
	Lifetime        string   `json:"lifetime"`
	BearerOnly      *bool    `json:"bearerOnly"`
	OperationID     string   `json:"operationId"`
}

// invitationJSON is an invitation on the wire.
type invitationJSON struct {
	ID             string                  `json:"id"`
	TaskID         string                  `json:"taskId"`
	SiblingGroupID string                  `json:"siblingGroupId,omitempty"`
	VerifierName   string                  `json:"verifierName"`
	AllowedActions []string                `json:"allowedActions"`
	BearerOnly     bool                    `json:"bearerOnly"`
	Recipient      string                  `json:"recipient"`
	Status         string                  `json:"status"`
	Revocable      bool                    `json:"revocable"`
	IssuedBy       *models.WireParticipant `json:"issuedBy,omitempty"`
	IssuedAt       string                  `json:"issuedAt"`
	ExpiresAt      string                  `json:"expiresAt"`
	DispatchedAt   *string                 `json:"dispatchedAt,omitempty"`
	VerifiedAt     *string                 `json:"verifiedAt,omitempty"`
	ConsumedAt     *string                 `json:"consumedAt,omitempty"`
	RevokedAt      *string                 `json:"revokedAt,omitempty"`
	Delivery       *deliveryJSON           `json:"delivery,omitempty"`
}

// deliveryJSON is the progress of an invitation's delivery.
type deliveryJSON struct {
	Dispatcher    string `json:"dispatcher"`
	State         string `json:"state"`
	Attempts      int    `json:"attempts"`
	LastError     string `json:"lastError,omitempty"`
	NextAttemptAt string `json:"nextAttemptAt"`
	UpdatedAt     string `json:"updatedAt"`
}

type invitationListJSON struct {
	Items []invitationJSON `json:"items"`
}

func invitationOf(v invitations.IssuedInvitation) invitationJSON {
	out := invitationJSON{
		ID: v.ID, TaskID: v.TaskID, SiblingGroupID: v.SiblingGroupID, VerifierName: v.VerifierName,
		AllowedActions: v.AllowedActions, BearerOnly: v.BearerOnly, Recipient: v.Recipient, Status: string(v.Status),
		Revocable: v.Revocable, IssuedBy: v.IssuedBy.Wire(), IssuedAt: rfc3339(v.IssuedAt), ExpiresAt: rfc3339(v.ExpiresAt),
		DispatchedAt: timestamp(v.DispatchedAt), VerifiedAt: timestamp(v.VerifiedAt), ConsumedAt: timestamp(v.ConsumedAt),
		RevokedAt: timestamp(v.RevokedAt),
	}
	if d := v.Delivery; d != nil {
		out.Delivery = &deliveryJSON{Dispatcher: d.Dispatcher, State: string(d.State), Attempts: d.Attempts, LastError: d.LastError,
			NextAttemptAt: rfc3339(d.NextAt), UpdatedAt: rfc3339(d.UpdatedAt)}
	}
	return out
}

func invitationList(vs []invitations.IssuedInvitation) invitationListJSON {
	out := invitationListJSON{Items: make([]invitationJSON, 0, len(vs))}
	for _, v := range vs {
		out.Items = append(out.Items, invitationOf(v))
	}
	return out
}

// issueInvitations handles POST /api/v1/user-tasks/:id/invitations.
func (h *invitationsAPI) issueInvitations(c echo.Context) error {
	return runCommand(c, parseIssueInvitations, h.invites.Issue, http.StatusCreated, invitationList)
}

func parseIssueInvitations(req issueInvitationsRequest) (invitations.IssueInput, error) {
	in := invitations.IssueInput{Definition: req.DefinitionIndex, VerifierName: req.VerifierName, Recipients: req.Recipients,
		AllowedActions: req.AllowedActions, Lifetime: req.Lifetime, BearerOnly: req.BearerOnly, OperationID: req.OperationID}
	if req.Recipient != nil {
		if len(req.Recipients) > 0 {
			return in, models.InvalidField("recipient", "give recipient or recipients, not both")
		}
		in.Recipients = []string{*req.Recipient}
	}
	return in, nil
}

// listInvitations handles GET /api/v1/user-tasks/:id/invitations.
func (h *invitationsAPI) listInvitations(c echo.Context) error {
	got, err := h.invites.List(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, invitationList(got.Items))
}

// revokeInvitation handles DELETE /api/v1/user-tasks/:id/invitations/:invitationId.
func (h *invitationsAPI) revokeInvitation(c echo.Context) error {
	if _, err := h.invites.Revoke(c.Request().Context(), actorOf(c), c.Param("id"), c.Param("invitationId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

package invitations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"usertasks/models"
	"usertasks/store"
)

// IssuerStore is what the Issuer needs from the store (a subset of store.Store).
type IssuerStore interface {
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	HasActed(ctx context.Context, tenant, id string, actor models.ParticipantRef) (bool, error)
	IssueInvitation(ctx context.Context, tenant, taskID string, build store.IssueFunc) (models.Invitation, error)
	Invitations(ctx context.Context, tenant, taskID string) ([]models.Invitation, error)
	InvitationDeliveries(ctx context.Context, tenant, taskID string) ([]models.Delivery, error)
	RevokeInvitation(ctx context.Context, tenant, taskID, invitationID string, build store.RevokeFunc) (models.Invitation, error)
}

// IssuerOptions configure an Issuer.
type IssuerOptions struct {
	// Dispatcher names the dispatcher of new delivery rows: "smtp", "webhook" or "dev-mailbox".
	// Empty means none is configured, and issuing is refused with invitations-unavailable.
	Dispatcher string
	// Now is the clock of listings (expired display status); nil means time.Now. Issuance and
	// revocation use the store's transaction clock.
	Now func() time.Time
}

// Issuer issues, lists and revokes guest invitations for managers (SPEC 6, 5.4 Manage panel).
// Every method answers ErrNotFound for a task the actor may not see, ErrForbidden for one they
// see but do not manage with the invite permission.
type Issuer struct {
	store      IssuerStore
	dispatcher string
	now        func() time.Time
}

// NewIssuer returns an Issuer over store.
func NewIssuer(store IssuerStore, o IssuerOptions) *Issuer {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Issuer{store: store, dispatcher: o.Dispatcher, now: o.Now}
}

// Dispatcher names the dispatcher of new invitations; empty when none is configured.
func (s *Issuer) Dispatcher() string { return s.dispatcher }

// emailDispatcher is the dispatcher whose recipients are e-mail addresses.
const emailDispatcher = "smtp"

// Recipient limits: an e-mail address (RFC 5321 path limit) or free text for other dispatchers.
const (
	maxEmailRecipientLength = 254
	maxTextRecipientRunes   = 200
)

// IssueInput is one issue request: one of the task's definitions, narrowed, for one or more
// recipients. Two or more recipients form a sibling group: the first to verify revokes the rest.
type IssueInput struct {
	// Definition is the index of one of the task's invitation definitions; without it,
	// VerifierName must name exactly one definition.
	Definition   *int
	VerifierName string
	Recipients   []string
	// AllowedActions narrows the definition's actions; empty keeps them all.
	AllowedActions []string
	// Lifetime (ISO 8601, e.g. PT12H) shortens the definition's lifetime; empty keeps it.
	Lifetime string
	// BearerOnly asks for the link alone, without a code; only where the definition opts in.
	// Nil takes the definition's choice (bearer when its verifier is "bearer" and it opts in).
	BearerOnly *bool
	// OperationID makes the request idempotent: the same actor sending it again gets the same
	// invitations back and nothing new is issued.
	OperationID string
}

// ListStatus is an invitation's status as the managers' listing shows it.
type ListStatus string

const (
	ListIssued     ListStatus = "issued" // stored as pending: waiting for its dispatch
	ListDispatched ListStatus = "dispatched"
	ListVerified   ListStatus = "verified"
	ListConsumed   ListStatus = "consumed"
	ListExpired    ListStatus = "expired" // also a pending or dispatched one past its expiry
	ListRevoked    ListStatus = "revoked"
	ListFailed     ListStatus = "failed" // its delivery was abandoned
)

// IssuedInvitation is an invitation as managers see it: never its token, its code or their
// hashes.
type IssuedInvitation struct {
	ID             string
	TaskID         string
	SiblingGroupID string
	VerifierName   string
	AllowedActions []string
	BearerOnly     bool
	Recipient      string
	Status         ListStatus
	IssuedBy       *models.ParticipantRef
	IssuedAt       time.Time
	ExpiresAt      time.Time
	DispatchedAt   *time.Time
	VerifiedAt     *time.Time
	ConsumedAt     *time.Time
	RevokedAt      *time.Time
	Delivery       *DeliveryStatus // nil when the invitation has no delivery row
	// Revocable reports whether Revoke would accept the invitation now.
	Revocable bool
}

// DeliveryStatus is the progress of an invitation's delivery row.
type DeliveryStatus struct {
	Dispatcher string
	State      models.DeliveryState
	Attempts   int
	LastError  string // a safe error code, never a message from the dispatcher
	NextAt     time.Time
	UpdatedAt  time.Time
}

// Issue issues invitations for the task against one of its definitions and returns them, one
// per recipient, in the order given. The raw token and code go only into the sealed delivery
// payload.
func (s *Issuer) Issue(ctx context.Context, a models.Actor, taskID string, in IssueInput) ([]IssuedInvitation, error) {
	t, err := s.managed(ctx, a, taskID)
	if err != nil {
		return nil, err
	}
	if s.dispatcher == "" {
		return nil, models.Conflict(models.CodeInvitationsUnavailable)
	}
	switch {
	case t.Status.IsTerminal():
		return nil, models.Conflict(models.CodeTerminal)
	case t.Status.IsTransitional():
		return nil, models.Conflict(models.CodeTransitionInProgress)
	}
	req, err := s.request(t, in)
	if err != nil {
		return nil, err
	}
	req.group = req.groupID(a, t.ID)
	var prior map[string]models.Invitation
	if in.OperationID != "" {
		if prior, err = s.invitationsByID(ctx, a.Tenant, t.ID); err != nil {
			return nil, err
		}
	}
	out := make([]IssuedInvitation, 0, len(req.recipients))
	for i, recipient := range req.recipients {
		id := req.invitationID(a, t.ID, i)
		if p, ok := prior[id]; ok {
			if !req.sameAs(p, recipient) {
				return nil, models.Conflict(models.CodeIdempotencyConflict)
			}
			out = append(out, s.view(p, nil, time.Time{}))
			continue
		}
		inv, err := s.store.IssueInvitation(ctx, a.Tenant, t.ID, req.build(a, id, recipient, s.dispatcher))
		if err != nil && in.OperationID != "" {
			// A concurrent request with the same operation id may have issued it first.
			if again, rerr := s.invitationsByID(ctx, a.Tenant, t.ID); rerr == nil {
				if p, ok := again[id]; ok && req.sameAs(p, recipient) {
					inv, err = p, nil
				}
			}
		}
		if err != nil {
			return out, err
		}
		out = append(out, s.view(inv, &models.Delivery{Dispatcher: s.dispatcher, State: models.DeliveryPending, AvailableAt: inv.IssuedAt, UpdatedAt: inv.IssuedAt}, time.Time{}))
	}
	return out, nil
}

// Listing is a task's invitations, newest first, and the definitions new ones are issued
// against (the Manage panel's choices).
type Listing struct {
	Items       []IssuedInvitation
	Definitions []models.InvitationDefinition
}

// List returns the task's invitations with their display status and delivery.
func (s *Issuer) List(ctx context.Context, a models.Actor, taskID string) (Listing, error) {
	t, err := s.managed(ctx, a, taskID)
	if err != nil {
		return Listing{}, err
	}
	invs, err := s.store.Invitations(ctx, a.Tenant, t.ID)
	if err != nil {
		return Listing{}, err
	}
	ds, err := s.store.InvitationDeliveries(ctx, a.Tenant, t.ID)
	if err != nil {
		return Listing{}, err
	}
	latest := map[string]*models.Delivery{}
	for i := range ds {
		latest[ds[i].InvitationID] = &ds[i] // in creation order: the last one wins
	}
	now := s.now()
	out := Listing{Items: make([]IssuedInvitation, 0, len(invs)), Definitions: t.Protected.InvitationDefinitions}
	for _, inv := range invs {
		out.Items = append(out.Items, s.view(inv, latest[inv.ID], now))
	}
	return out, nil
}

// Revoke revokes one invitation of the task: it can no longer be verified, its pending
// delivery is dropped and a guest session it opened ends. A guest who already holds the task
// stays its assignee; reassigning or releasing the task is the manager's next step.
func (s *Issuer) Revoke(ctx context.Context, a models.Actor, taskID, invitationID string) (IssuedInvitation, error) {
	t, err := s.managed(ctx, a, taskID)
	if err != nil {
		return IssuedInvitation{}, err
	}
	if invitationID == "" || models.TextProblem(invitationID, models.Identifier) != "" {
		return IssuedInvitation{}, models.ErrNotFound
	}
	inv, err := s.store.RevokeInvitation(ctx, a.Tenant, t.ID, invitationID, func(now time.Time, cur models.Task, inv models.Invitation) (models.Event, error) {
		if !revocable(inv, now) {
			return models.Event{}, models.Conflict(models.CodeInvitationNotRevocable)
		}
		return models.InvitationEvent(cur, a, models.EventInvitationRevoked, inv.ID, now)
	})
	if err != nil {
		return IssuedInvitation{}, err
	}
	return s.view(inv, nil, time.Time{}), nil
}

// managed loads the task for a manager with the invite permission. Whoever may not see the
// task gets ErrNotFound; whoever sees it without managing it gets ErrForbidden.
func (s *Issuer) managed(ctx context.Context, a models.Actor, taskID string) (models.Task, error) {
	if taskID == "" || models.TextProblem(taskID, models.Identifier) != "" || a.Guest != nil || a.System {
		return models.Task{}, models.ErrNotFound
	}
	t, err := s.store.Get(ctx, a.Tenant, taskID)
	if err != nil {
		return models.Task{}, err
	}
	r := models.Relate(t, a, false)
	if r.Manager && models.ActorCan(a, models.PermInvite) {
		return t, nil
	}
	visible := models.CanReadSummary(t, a, r)
	if !visible && !t.Health.Blocking() && models.ActorCan(a, models.PermView) {
		acted, err := s.store.HasActed(ctx, a.Tenant, t.ID, a.Subject)
		if err != nil {
			return models.Task{}, err
		}
		visible = acted && models.CanReadSummary(t, a, models.Relate(t, a, true))
	}
	if visible {
		return models.Task{}, models.ErrForbidden
	}
	return models.Task{}, models.ErrNotFound
}

func (s *Issuer) invitationsByID(ctx context.Context, tenant, taskID string) (map[string]models.Invitation, error) {
	invs, err := s.store.Invitations(ctx, tenant, taskID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]models.Invitation, len(invs))
	for _, inv := range invs {
		out[inv.ID] = inv
	}
	return out, nil
}

// view is what managers see of inv; d is its latest delivery row, if known. A zero now skips
// the expiry display (a fresh answer of Issue or Revoke).
func (s *Issuer) view(inv models.Invitation, d *models.Delivery, now time.Time) IssuedInvitation {
	v := IssuedInvitation{
		ID: inv.ID, TaskID: inv.TaskID, SiblingGroupID: inv.SiblingGroupID, VerifierName: inv.VerifierName,
		AllowedActions: inv.AllowedActions, BearerOnly: inv.BearerOnly, Recipient: inv.Recipient,
		IssuedBy: inv.IssuedBy, IssuedAt: inv.IssuedAt, ExpiresAt: inv.ExpiresAt, DispatchedAt: inv.DispatchedAt,
		VerifiedAt: inv.VerifiedAt, ConsumedAt: inv.ConsumedAt, RevokedAt: inv.RevokedAt,
	}
	if v.AllowedActions == nil {
		v.AllowedActions = []string{}
	}
	if d != nil {
		v.Delivery = &DeliveryStatus{Dispatcher: d.Dispatcher, State: d.State, Attempts: d.Attempts, LastError: d.LastError,
			NextAt: d.AvailableAt, UpdatedAt: d.UpdatedAt}
	}
	v.Status = listStatus(inv, d, now)
	check := now
	if check.IsZero() {
		check = inv.UpdatedAt
	}
	v.Revocable = revocable(inv, check)
	return v
}

// listStatus is the display status: the stored one, with expiry and failed delivery made visible.
func listStatus(inv models.Invitation, d *models.Delivery, now time.Time) ListStatus {
	open := inv.Status == models.InvitationPending || inv.Status == models.InvitationDispatched
	switch {
	case open && !now.IsZero() && !now.Before(inv.ExpiresAt):
		return ListExpired
	case inv.Status == models.InvitationPending && d != nil && d.State == models.DeliveryAbandoned:
		return ListFailed
	case inv.Status == models.InvitationPending:
		return ListIssued
	}
	return ListStatus(inv.Status)
}

// revocable reports whether an invitation may be revoked at now: not yet used and not expired,
// or verified (its guest holds the task; revoking ends the guest's session).
func revocable(inv models.Invitation, now time.Time) bool {
	switch inv.Status {
	case models.InvitationVerified:
		return true
	case models.InvitationPending, models.InvitationDispatched:
		return now.Before(inv.ExpiresAt)
	}
	return false
}

// issueRequest is an issue request checked against the task's definition.
type issueRequest struct {
	def        models.InvitationDefinition // the definition narrowed by the request
	verifier   string
	recipients []string
	opID       string
	group      string // the sibling group of two or more recipients
}

// request checks in against the task and resolves it to one narrowed definition.
func (s *Issuer) request(t models.Task, in IssueInput) (issueRequest, error) {
	defs := t.Protected.InvitationDefinitions
	if len(defs) == 0 {
		return issueRequest{}, models.InvalidField("definition", "the task has no invitation definitions")
	}
	var fields []models.FieldError
	fail := func(field, msg string) { fields = append(fields, models.FieldError{Field: field, Message: msg}) }
	if in.OperationID != "" && (len(in.OperationID) > models.MaxOperationIDLength || models.TextProblem(in.OperationID, models.Identifier) != "") {
		fail("operationId", "must be at most 128 bytes of identifier characters")
	}
	def, ok := pickDefinition(defs, in)
	if !ok {
		fail("definition", "is not one of the task's invitation definitions")
		return issueRequest{}, models.Invalid(models.CodeValidationFailed, fields...)
	}
	req := issueRequest{def: def, opID: in.OperationID}

	if len(in.AllowedActions) > 0 {
		var narrowed []string
		for i, key := range in.AllowedActions {
			j := slices.IndexFunc(def.AllowedActions, func(k string) bool { return strings.EqualFold(k, key) })
			switch {
			case j < 0:
				fields = append(fields, models.FieldError{Field: fmt.Sprintf("allowedActions[%d]", i), Message: "is not an action of the definition"})
			case !slices.Contains(narrowed, def.AllowedActions[j]):
				narrowed = append(narrowed, def.AllowedActions[j])
			}
		}
		req.def.AllowedActions = narrowed
	}

	if in.Lifetime != "" {
		limit := DefaultLifetime
		if def.Lifetime != "" {
			limit, _ = models.ParseLifetime(def.Lifetime) // checked by the projection
		}
		switch d, err := models.ParseLifetime(in.Lifetime); {
		case err != nil:
			fail("lifetime", err.Error())
		case d > limit:
			fail("lifetime", "must not be longer than the definition's lifetime")
		default:
			req.def.Lifetime = in.Lifetime
		}
	}

	bearer := def.BearerOnly && def.VerifierName == "bearer"
	if in.BearerOnly != nil {
		bearer = *in.BearerOnly
	}
	switch {
	case bearer && !def.BearerOnly:
		fail("bearerOnly", "the definition does not allow the link alone")
	case bearer:
		req.verifier = "bearer"
	default:
		req.verifier = "code"
	}
	req.def.BearerOnly = bearer

	switch {
	case len(in.Recipients) == 0 && def.Recipient != "":
		req.recipients = []string{def.Recipient}
	case len(in.Recipients) == 0:
		fail("recipients", "is required")
	case len(in.Recipients) > models.MaxInvitationsPerTask:
		fail("recipients", fmt.Sprintf("must be at most %d", models.MaxInvitationsPerTask))
	}
	for i, r := range in.Recipients {
		if len(in.Recipients) > models.MaxInvitationsPerTask {
			break
		}
		field := fmt.Sprintf("recipients[%d]", i)
		r, msg := s.recipient(r)
		switch {
		case msg != "":
			fail(field, msg)
		case def.Recipient != "" && !strings.EqualFold(r, def.Recipient):
			fail(field, "must be the definition's recipient")
		case slices.ContainsFunc(req.recipients, func(o string) bool { return strings.EqualFold(o, r) }):
			fail(field, "is listed twice")
		default:
			req.recipients = append(req.recipients, r)
		}
	}
	if len(fields) > 0 {
		return issueRequest{}, models.Invalid(models.CodeValidationFailed, fields...)
	}
	return req, nil
}

// pickDefinition finds the definition the request names by index or by verifier name.
func pickDefinition(defs []models.InvitationDefinition, in IssueInput) (models.InvitationDefinition, bool) {
	if in.Definition != nil {
		i := *in.Definition
		if i < 0 || i >= len(defs) || (in.VerifierName != "" && in.VerifierName != defs[i].VerifierName) {
			return models.InvitationDefinition{}, false
		}
		return defs[i], true
	}
	found, n := models.InvitationDefinition{}, 0
	for _, d := range defs {
		if in.VerifierName != "" && d.VerifierName == in.VerifierName {
			found, n = d, n+1
		}
	}
	return found, n == 1
}

// recipient checks one recipient: an e-mail address for SMTP, a line of text otherwise.
func (s *Issuer) recipient(raw string) (string, string) {
	r := strings.TrimSpace(raw)
	switch {
	case r == "":
		return "", "is required"
	case models.TextProblem(r, models.Label) != "":
		return "", models.TextProblem(r, models.Label)
	case s.dispatcher == emailDispatcher && len(r) > maxEmailRecipientLength:
		return "", fmt.Sprintf("must be at most %d bytes", maxEmailRecipientLength)
	case s.dispatcher == emailDispatcher:
		if addr, err := mail.ParseAddress(r); err != nil || addr.Address != r {
			return "", "must be an e-mail address"
		}
	case utf8.RuneCountInString(r) > maxTextRecipientRunes:
		return "", fmt.Sprintf("must be at most %d characters", maxTextRecipientRunes)
	}
	return r, ""
}

// invitationID is the id of the request's i-th invitation: random, or derived from the actor
// and the operation id so a replay finds (and the primary key guards) the first answer.
func (r issueRequest) invitationID(a models.Actor, taskID string, i int) string {
	if r.opID == "" {
		return models.NewID()
	}
	return derivedID(a, taskID, r.opID, fmt.Sprintf("invitation-%d", i))
}

// groupID is the sibling group of a request for several recipients.
func (r issueRequest) groupID(a models.Actor, taskID string) string {
	if len(r.recipients) < 2 {
		return ""
	}
	if r.opID == "" {
		return models.NewID()
	}
	return derivedID(a, taskID, r.opID, "group")
}

// derivedID is a UUID (version 8, RFC 9562) from a SHA-256 of the request's identity.
func derivedID(a models.Actor, taskID, opID, what string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{"usertasks-invitation", a.Tenant, a.Subject.Provider,
		string(a.Subject.Type), a.Subject.ID, taskID, opID, what}, "\x00")))
	b := sum[:16]
	b[6] = 0x80 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// sameAs reports whether a stored invitation answers this request for recipient (a replay).
func (r issueRequest) sameAs(inv models.Invitation, recipient string) bool {
	return inv.Recipient == recipient && inv.VerifierName == r.verifier && inv.BearerOnly == r.def.BearerOnly &&
		slices.Equal(inv.AllowedActions, r.def.AllowedActions)
}

// build makes the store's IssueFunc for one recipient: fresh secrets, the invitation, its
// delivery row with the sealed payload, and the invitation-issued event.
func (r issueRequest) build(a models.Actor, id, recipient, dispatcher string) store.IssueFunc {
	return func(now time.Time, cur models.Task) (models.Invitation, models.Delivery, models.Event, error) {
		var inv models.Invitation
		var d models.Delivery
		ev, err := models.InvitationEvent(cur, a, models.EventInvitationIssued, id, now)
		if err != nil {
			return inv, d, ev, err
		}
		ev.OperationID = r.opID
		expires, err := ExpiresAt(r.def, cur, now)
		if err != nil {
			return inv, d, ev, err
		}
		if !expires.After(now) {
			return inv, d, ev, models.InvalidField("dueAt", "the task is due already: an invitation would expire at once")
		}
		token, tokenHash, err := NewSecret()
		if err != nil {
			return inv, d, ev, err
		}
		var code, codeHash string
		if r.verifier == "code" {
			if code, codeHash, err = NewCode(id); err != nil {
				return inv, d, ev, err
			}
		}
		payload, err := Payload{Token: token, Code: code, Recipient: recipient}.Encode()
		if err != nil {
			return inv, d, ev, err
		}
		by := a.Subject
		inv = models.Invitation{
			ID: id, Tenant: cur.Tenant, TaskID: cur.ID, SiblingGroupID: r.group, VerifierName: r.verifier,
			AllowedActions: r.def.AllowedActions, BearerOnly: r.def.BearerOnly, Recipient: recipient,
			TokenHash: tokenHash, CodeHash: codeHash, Status: models.InvitationPending, IssuedBy: &by,
			IssuedAt: now, ExpiresAt: expires, UpdatedAt: now,
		}
		d = models.Delivery{
			ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, InvitationID: id, Dispatcher: dispatcher,
			Payload: payload, State: models.DeliveryPending, AvailableAt: now, ExpiresAt: expires,
			IdempotencyKey: id, CreatedAt: now, UpdatedAt: now,
		}
		return inv, d, ev, nil
	}
}

package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/live"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// The in-app notifications API (SPEC 10.3): the caller's own notifications and preferences.
// The recipient and the tenant are always the caller's (from the token or the session);
// guests have none (403).
//
//	GET  /api/v1/me/notifications?unread=&cursor=&limit=  200 {items, nextCursor, unreadCount}
//	POST /api/v1/me/notifications/read                    204; body {ids} or {all: true}
//	GET  /api/v1/me/notification-preferences               200 {email: {trigger: bool}, digest}
//	PUT  /api/v1/me/notification-preferences               200 the stored preferences

// NotificationStore is the in-app side of notifications and the people the product knows;
// store.Store satisfies it.
type NotificationStore interface {
	store.Notifications
	store.People
}

// maxReadIDs bounds the ids of one mark-read request.
const maxReadIDs = models.MaxPageSize

// notificationsAPI holds the notification handlers.
type notificationsAPI struct {
	store NotificationStore
	live  *live.Broker // tells the caller's other tabs; nil without live updates
}

// registerNotificationsAPI adds the notification routes to the API group.
func registerNotificationsAPI(v1 *echo.Group, s NotificationStore, b *live.Broker, authed echo.MiddlewareFunc) {
	h := &notificationsAPI{store: s, live: b}
	v1.GET("/me/notifications", h.list, authed)
	v1.POST("/me/notifications/read", h.markRead, authed)
	v1.GET("/me/notification-preferences", h.preferences, authed)
	v1.PUT("/me/notification-preferences", h.setPreferences, authed)
}

// recipientOf is the caller as a notification recipient: a signed-in user, never a guest or
// the system.
func recipientOf(a models.Actor) (models.ParticipantRef, error) {
	if a.Guest != nil || a.System || a.Subject.ID == "" || a.Subject.Provider == models.GuestProvider {
		return models.ParticipantRef{}, models.ErrForbidden
	}
	r := a.Subject
	r.DisplayName = ""
	return r, nil
}

// notificationJSON is one notification on the wire: safe fields only (SPEC 10.3).
type notificationJSON struct {
	ID         string                  `json:"id"`
	Trigger    string                  `json:"trigger"`
	TaskID     string                  `json:"taskId"`
	Title      string                  `json:"title"`
	Actor      *models.WireParticipant `json:"actor,omitempty"`
	OccurredAt string                  `json:"occurredAt"`
	ReadAt     *string                 `json:"readAt,omitempty"`
}

func notificationOf(n models.Notification) notificationJSON {
	return notificationJSON{ID: n.ID, Trigger: string(n.Trigger), TaskID: n.TaskID, Title: n.Title,
		Actor: n.Actor.Wire(), OccurredAt: rfc3339(n.OccurredAt), ReadAt: timestamp(n.ReadAt)}
}

// list handles GET /api/v1/me/notifications: newest first; unread=true only the unread ones.
func (h *notificationsAPI) list(c echo.Context) error {
	a := actorOf(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	r := queryReader{q: c.QueryParams()}
	q := models.NotificationQuery{Tenant: a.Tenant, Recipient: who, UnreadOnly: r.boolean("unread"), Limit: r.limit()}
	raw := r.str("cursor")
	if err := r.err(); err != nil {
		return err
	}
	if raw != "" {
		if q.After, err = storekit.DecodeNotificationCursor(raw, q.UnreadOnly); err != nil {
			return err
		}
	}
	page, err := h.store.Notifications(c.Request().Context(), q)
	if err != nil {
		return err
	}
	out := struct {
		Items       []notificationJSON `json:"items"`
		NextCursor  *string            `json:"nextCursor"`
		UnreadCount int                `json:"unreadCount"`
	}{Items: make([]notificationJSON, 0, len(page.Items)), UnreadCount: page.Unread}
	for _, n := range page.Items {
		out.Items = append(out.Items, notificationOf(n))
	}
	if page.Next != nil {
		s := storekit.EncodeNotificationCursor(*page.Next, q.UnreadOnly)
		out.NextCursor = &s
	}
	return c.JSON(http.StatusOK, out)
}

// markRead handles POST /api/v1/me/notifications/read: {ids: [...]} (at most 200; others' and
// unknown ids are ignored) or {all: true}, not both.
func (h *notificationsAPI) markRead(c echo.Context) error {
	var body struct {
		IDs []string `json:"ids"`
		All bool     `json:"all"`
	}
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	a := actorOf(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	if err := checkReadRequest(body.IDs, body.All); err != nil {
		return err
	}
	n, err := h.store.MarkNotificationsRead(c.Request().Context(), a.Tenant, who, body.IDs, body.All)
	if err != nil {
		return err
	}
	if n > 0 && h.live != nil {
		h.live.Notify(a.Tenant, who) // the caller's other tabs update their bell
	}
	return c.NoContent(http.StatusNoContent)
}

// checkReadRequest validates a mark-read request: ids or all, ids non-empty identifiers.
func checkReadRequest(ids []string, all bool) error {
	switch {
	case all && len(ids) > 0:
		return models.InvalidField("ids", "give ids or all, not both")
	case !all && len(ids) == 0:
		return models.InvalidField("ids", "give at least one id, or all: true")
	case len(ids) > maxReadIDs:
		return models.InvalidField("ids", "at most 200 ids")
	}
	for _, id := range ids {
		if id == "" || len(id) > models.MaxParticipantIDLength || models.TextProblem(id, models.Identifier) != "" {
			return models.InvalidField("ids", "must be notification ids")
		}
	}
	return nil
}

// preferencesJSON is a person's notification preferences on the wire.
type preferencesJSON struct {
	Email  map[string]bool `json:"email"`
	Digest string          `json:"digest"`
}

func preferencesOf(p models.NotificationPreferences) preferencesJSON {
	p = p.Complete()
	out := preferencesJSON{Email: make(map[string]bool, len(p.Email)), Digest: string(p.Digest)}
	for t, on := range p.Email {
		out.Email[string(t)] = on
	}
	return out
}

// preferences handles GET /api/v1/me/notification-preferences: the stored choices, the
// defaults for a person not yet recorded.
func (h *notificationsAPI) preferences(c echo.Context) error {
	a := actorOf(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	prefs, err := storedPreferences(c, h.store, a.Tenant, who)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, preferencesOf(prefs))
}

// setPreferences handles PUT /api/v1/me/notification-preferences. A trigger left out keeps
// its stored choice; digest left out keeps the stored period; an unknown trigger or period is
// 422 naming it.
func (h *notificationsAPI) setPreferences(c echo.Context) error {
	var body struct {
		Email  map[string]bool `json:"email"`
		Digest *string         `json:"digest"`
	}
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	a := actorOf(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	prefs, err := storedPreferences(c, h.store, a.Tenant, who)
	if err != nil {
		return err
	}
	if prefs, err = applyPreferences(prefs, body.Email, body.Digest); err != nil {
		return err
	}
	p, err := h.store.SetNotificationPreferences(c.Request().Context(), a.Tenant, who, prefs)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, preferencesOf(p.Preferences))
}

// storedPreferences is the person's stored preferences, completed; the defaults when the
// person is not recorded yet.
func storedPreferences(c echo.Context, s NotificationStore, tenant string, who models.ParticipantRef) (models.NotificationPreferences, error) {
	p, err := s.Person(c.Request().Context(), tenant, who)
	switch {
	case err == nil:
		return p.Preferences.Complete(), nil
	case errors.Is(err, models.ErrNotFound):
		return models.DefaultNotificationPreferences(), nil
	}
	return models.NotificationPreferences{}, err
}

// applyPreferences sets the given choices on prefs, refusing unknown triggers and periods
// (every problem named at once).
func applyPreferences(prefs models.NotificationPreferences, email map[string]bool, digest *string) (models.NotificationPreferences, error) {
	prefs = prefs.Complete()
	var problems []models.FieldError
	for name, on := range email {
		t := models.NotificationTrigger(name)
		if !t.Valid() {
			problems = append(problems, models.FieldError{Field: "email." + models.Truncate(name, 64), Message: "unknown trigger; one of " + triggerNames()})
			continue
		}
		prefs.Email[t] = on
	}
	if digest != nil {
		if d := models.DigestPeriod(*digest); d.Valid() {
			prefs.Digest = d
		} else {
			problems = append(problems, models.FieldError{Field: "digest", Message: "must be one of off, hourly, daily"})
		}
	}
	if len(problems) > 0 {
		return prefs, models.Invalid(models.CodeValidationFailed, problems...)
	}
	return prefs, nil
}

func triggerNames() string {
	names := make([]string, len(models.NotificationTriggers))
	for i, t := range models.NotificationTriggers {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

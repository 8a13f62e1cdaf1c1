package handlers

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/storekit"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The notification pages (SPEC 10.3): the in-app list with mark-read, and the email settings.
// Both work without script; every post is CSRF-protected and answered by a redirect (PRG).

// bellLimit is how far the bell counts: it shows "99+" beyond 99.
const bellLimit = 100

// Flash keys of the notification pages.
const (
	flashNotificationsRead  = "notifications-read"
	flashNotificationsSaved = "notification-settings-saved"
)

// recordVisit records the signed-in person (people_record.go) with the page's language and
// the session's time zone; it never fails the request.
func (w *web) recordVisit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if w.people != nil {
			if d, ok := webSession(c); ok {
				w.people.visit(c.Request().Context(), d.actor(), catalog(c).Lang, d.TimeZone)
			}
		}
		return next(c)
	}
}

// recordSignIn records a person at sign-in, past the throttle: an OIDC sign-in carries the
// email claim, which the session does not keep.
func (w *web) recordSignIn(c echo.Context, a models.Actor) {
	if w.people != nil {
		w.people.signedIn(c.Request().Context(), a, catalog(c).Lang, "")
	}
}

// bell is the header's unread count; nil (no bell) without notifications or a session. A
// store error shows the bell without a count rather than failing the page.
func (w *web) bell(c echo.Context) *views.Bell {
	if w.notices == nil {
		return nil
	}
	d, ok := webSession(c)
	if !ok {
		return nil
	}
	a := d.actor()
	who, err := recipientOf(a)
	if err != nil {
		return nil
	}
	n, err := w.notices.UnreadNotifications(c.Request().Context(), a.Tenant, who, bellLimit)
	if err != nil {
		w.log.Warn("notifications: the bell's unread count failed", "error", err.Error())
		return &views.Bell{Unknown: true}
	}
	return &views.Bell{Unread: n}
}

// notificationsPage handles GET /notifications: the signed-in person's notifications, newest
// first, unread marked; ?unread=true only the unread; ?cursor= pages on.
func (w *web) notificationsPage(c echo.Context) error {
	a := webActor(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	unread := c.QueryParam("unread") == "true"
	q := models.NotificationQuery{Tenant: a.Tenant, Recipient: who, UnreadOnly: unread, Limit: models.DefaultPageSize}
	if raw := c.QueryParam("cursor"); raw != "" {
		if q.After, err = storekit.DecodeNotificationCursor(raw, unread); err != nil {
			return err
		}
	}
	page, err := w.notices.Notifications(c.Request().Context(), q)
	if err != nil {
		return err
	}
	m := views.NotificationsPage{Chrome: w.chrome(c, func(t *i18n.Catalog) string { return t.Notifications.Title }),
		UnreadOnly: unread, Unread: page.Unread, Paged: q.After != nil}
	for _, n := range page.Items {
		row := views.NotificationRow{ID: n.ID, Trigger: string(n.Trigger), TaskID: n.TaskID, Title: n.Title, Href: taskHref(n.TaskID),
			OccurredAt: n.OccurredAt, Unread: n.ReadAt == nil}
		if n.Actor != nil {
			row.Actor = firstNonEmpty(n.Actor.DisplayName, n.Actor.ID)
		}
		m.Rows = append(m.Rows, row)
	}
	if page.Next != nil {
		v := url.Values{"cursor": {storekit.EncodeNotificationCursor(*page.Next, unread)}}
		if unread {
			v.Set("unread", "true")
		}
		m.NextURL = "/notifications?" + v.Encode()
	}
	return w.render(c, http.StatusOK, views.NotificationsView(m))
}

// markNotificationsRead handles POST /notifications/read: the form's id (one row's button),
// or all=true; then back to the list the form was on (unread=true: the unread list).
func (w *web) markNotificationsRead(c echo.Context) error {
	a := webActor(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	all := c.FormValue("all") == "true"
	var ids []string
	if id := c.FormValue("id"); id != "" && !all {
		ids = []string{id}
	}
	if err := checkReadRequest(ids, all); err != nil {
		return errBadForm
	}
	n, err := w.notices.MarkNotificationsRead(c.Request().Context(), a.Tenant, who, ids, all)
	if err != nil {
		return err
	}
	if n > 0 && w.live != nil {
		w.live.Notify(a.Tenant, who) // other tabs update their bell
	}
	w.setFlash(c, webFlash{Key: flashNotificationsRead})
	back := "/notifications"
	if c.FormValue("unread") == "true" {
		back += "?unread=true"
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// notificationSettings handles GET /settings/notifications: email per trigger and the digest.
func (w *web) notificationSettings(c echo.Context) error {
	a := webActor(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	prefs, err := storedPreferences(c, w.notices, a.Tenant, who)
	if err != nil {
		return err
	}
	return w.renderNotificationSettings(c, http.StatusOK, prefs)
}

// saveNotificationSettings handles POST /settings/notifications: a checked box turns a
// trigger's email on, an unchecked one off; the digest is one of the periods (anything else
// re-renders the form with the message, 422).
func (w *web) saveNotificationSettings(c echo.Context) error {
	a := webActor(c)
	who, err := recipientOf(a)
	if err != nil {
		return err
	}
	email := make(map[string]bool, len(models.NotificationTriggers))
	for _, t := range models.NotificationTriggers {
		email[string(t)] = c.FormValue("email."+string(t)) == "on"
	}
	digest := c.FormValue("digest")
	prefs, err := applyPreferences(models.DefaultNotificationPreferences(), email, &digest)
	if err != nil {
		return w.renderNotificationSettings(c, http.StatusUnprocessableEntity, prefs, catalog(c).Notifications.DigestInvalid)
	}
	if _, err := w.notices.SetNotificationPreferences(c.Request().Context(), a.Tenant, who, prefs); err != nil {
		return err
	}
	w.setFlash(c, webFlash{Key: flashNotificationsSaved})
	return c.Redirect(http.StatusSeeOther, "/settings/notifications")
}

func (w *web) renderNotificationSettings(c echo.Context, status int, prefs models.NotificationPreferences, digestError ...string) error {
	m := views.NotificationSettingsPage{Chrome: w.chrome(c, func(t *i18n.Catalog) string { return t.Notifications.SettingsTitle }),
		Digest: string(prefs.Digest)}
	for _, t := range models.NotificationTriggers {
		m.Triggers = append(m.Triggers, views.TriggerChoice{Trigger: string(t), Email: prefs.EmailOn(t)})
	}
	if len(digestError) > 0 {
		m.DigestError = digestError[0]
	}
	return w.render(c, status, views.NotificationSettingsView(m))
}

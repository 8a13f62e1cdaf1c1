package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/views"
	"usertasks/views/i18n"
)

// DevMailbox is what the dev mailbox page reads: the invitations the dev-mailbox dispatcher
// kept in memory (*invitations.DevMailbox).
type DevMailbox interface {
	Messages(tenant string) []invitations.MailboxEntry
}

// registerDevMailbox adds GET /dev/mailbox when the server runs in dev mode (cmd/web hands a
// mailbox over only then); otherwise the path stays unknown (404).
func (w *web) registerDevMailbox(e *echo.Echo, box DevMailbox, signedIn []echo.MiddlewareFunc) {
	if box == nil {
		return
	}
	w.mailbox = box
	e.GET("/dev/mailbox", w.devMailbox, signedIn...)
}

// devMailbox handles GET /dev/mailbox: the invitations sent in the signed-in manager's tenant,
// newest first. A development tool: it shows raw links and codes, which is why it never
// exists outside dev mode and only managers (who issue invitations) may read it; anyone else
// gets the 403 page, as on the other manager pages.
func (w *web) devMailbox(c echo.Context) error {
	a := webActor(c)
	if a.Guest != nil || a.System || !a.Manager || !models.ActorCan(a, models.PermSupervise) {
		return models.ErrForbidden
	}
	ch := w.chrome(c, func(t *i18n.Catalog) string { return t.Mailbox.Title })
	page := views.DevMailboxPage{Chrome: ch}
	for _, m := range w.mailbox.Messages(a.Tenant) {
		page.Messages = append(page.Messages, views.DevMailboxRow{Recipient: m.Recipient, Link: m.Link, Code: m.Code,
			SentAt: m.SentAt, ExpiresAt: m.ExpiresAt})
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return w.render(c, http.StatusOK, views.DevMailboxView(page))
}

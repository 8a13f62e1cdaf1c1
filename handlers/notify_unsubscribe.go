package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The one-click unsubscribe of notification email (SPEC 10.3, RFC 8058). Every mail names
//
//	List-Unsubscribe: <BASE_URL/notifications/unsubscribe?t=TOKEN>
//	List-Unsubscribe-Post: List-Unsubscribe=One-Click
//
//	GET  /notifications/unsubscribe?t=…  a page saying what the link turns off, with a button;
//	                                     it changes nothing (mail scanners open links)
//	POST /notifications/unsubscribe      t (query or form) and List-Unsubscribe=One-Click:
//	                                     turns it off and answers 200 with a page saying so
//
// No session and no CSRF token: the signed token is the capability (what RFC 8058 requires of
// a mail client's POST, which carries no cookie). A token that is not one of ours, altered or
// under a key that left the ring, is the one 404 page. The pages link nowhere but to the
// settings, send no referrer (the URL holds the token) and are never cached.

// NotifyUnsubscriber serves the unsubscribe link (notify.Unsubscriber).
type NotifyUnsubscriber interface {
	Lookup(ctx context.Context, token string) (notify.Unsubscribe, error)
	Apply(ctx context.Context, token string) (notify.Unsubscribe, error)
}

// unsubscribePages holds the unsubscribe handlers.
type unsubscribePages struct {
	*web
	service NotifyUnsubscriber
}

// registerUnsubscribe is the unsubscribe link's route table.
func (w *web) registerUnsubscribe(e *echo.Echo, s NotifyUnsubscriber) {
	u := &unsubscribePages{web: w, service: s}
	mw := []echo.MiddlewareFunc{guestHeaders, u.failures}
	e.GET(views.NotifyUnsubscribeAction, u.page, slices.Clip(mw)...)
	e.POST(views.NotifyUnsubscribeAction, u.unsubscribe, slices.Clip(mw)...)
}

// errNotOneClick refuses a POST without RFC 8058's List-Unsubscribe=One-Click.
var errNotOneClick = echo.NewHTTPError(http.StatusBadRequest, "List-Unsubscribe=One-Click is required")

// page handles GET /notifications/unsubscribe?t=…: what the link would turn off.
func (u *unsubscribePages) page(c echo.Context) error {
	token := c.QueryParam("t")
	got, err := u.service.Lookup(c.Request().Context(), token)
	if err != nil {
		return err
	}
	t := u.unsubscribeCatalog(c, got.Language)
	m := views.NotifyUnsubscribePage{Kind: "unsubscribe-confirm", Status: http.StatusOK, Token: token, Note: t.Unsubscribe.InAppStays}
	name := notify.TriggerName(t.Lang, got.Trigger)
	switch {
	case got.Off && got.Digest():
		m.Kind, m.Token, m.Heading, m.Message = "unsubscribe-done", "", t.Unsubscribe.DoneTitle, t.Unsubscribe.DigestAlreadyOff
	case got.Off:
		m.Kind, m.Token, m.Heading, m.Message = "unsubscribe-done", "", t.Unsubscribe.DoneTitle, t.Format(t.Unsubscribe.AlreadyOff, name)
	case got.Digest():
		m.Heading, m.Message = t.Unsubscribe.DigestConfirm, t.Unsubscribe.DigestText
	default:
		m.Heading, m.Message = t.Format(t.Unsubscribe.Confirm, name), t.Unsubscribe.ConfirmText
	}
	return u.show(c, t, m)
}

// unsubscribe handles POST /notifications/unsubscribe: a mail client's one-click POST or the
// page's button.
func (u *unsubscribePages) unsubscribe(c echo.Context) error {
	if c.FormValue("List-Unsubscribe") != "One-Click" {
		return errNotOneClick
	}
	got, err := u.service.Apply(c.Request().Context(), c.FormValue("t"))
	if err != nil {
		return err
	}
	t := u.unsubscribeCatalog(c, got.Language)
	m := views.NotifyUnsubscribePage{Kind: "unsubscribe-done", Status: http.StatusOK, Heading: t.Unsubscribe.DoneTitle,
		Message: t.Format(t.Unsubscribe.Done, notify.TriggerName(t.Lang, got.Trigger)), Note: t.Unsubscribe.InAppStays}
	if got.Digest() {
		m.Message = t.Unsubscribe.DigestDone
	}
	return u.show(c, t, m)
}

// unsubscribeCatalog speaks the person's recorded language, else the browser's.
func (u *unsubscribePages) unsubscribeCatalog(c echo.Context, language string) *i18n.Catalog {
	if t := i18n.ByLang(language); t != nil {
		return t
	}
	return catalog(c)
}

// show renders m in t's language, with no language switcher: its return would need the token.
func (u *unsubscribePages) show(c echo.Context, t *i18n.Catalog, m views.NotifyUnsubscribePage) error {
	c.Response().Header().Set("Content-Language", t.Lang)
	loc := pageLocation(c, "")
	m.Chrome = views.Chrome{T: t, Title: t.Unsubscribe.Title, Now: u.now(), Location: loc, TimeZone: loc.String()}
	return u.render(c, m.Status, views.NotifyUnsubscribeView(m))
}

// failures answers every error with the unsubscribe page: a token that is not valid is the one
// 404 page; the rest say what the error page would (internal errors logged once).
func (u *unsubscribePages) failures(next echo.HandlerFunc) echo.HandlerFunc {
	return errorPages(next, func(c echo.Context, err error) error {
		t := catalog(c)
		m := views.NotifyUnsubscribePage{Kind: "unsubscribe-invalid", Status: http.StatusNotFound,
			Heading: t.Unsubscribe.InvalidTitle, Message: t.Unsubscribe.InvalidText}
		if !errors.Is(err, models.ErrNotFound) {
			pe := u.answerError(c, err, t)
			m.Kind, m.Status, m.Heading, m.Message = "unsubscribe-failed", pe.status, pe.heading, pe.message
		}
		return u.show(c, t, m)
	})
}

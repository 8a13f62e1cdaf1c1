package handlers

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/views"
	"usertasks/views/i18n"
	"usertasks/webguard"
	"usertasks/websession"
)

// render writes a page: rendered into a buffer first, so a render error is an ordinary error
// and never half a page. Pages are the caller's own and may hold protected content: no caching.
func (w *web) render(c echo.Context, status int, page templ.Component) error {
	var buf bytes.Buffer
	if err := page.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, "no-store")
	h.Add(echo.HeaderVary, "Accept-Language")
	h.Add(echo.HeaderVary, echo.HeaderCookie)
	return c.HTMLBlob(status, buf.Bytes())
}

// chrome builds what every page shares. It consumes the flash message, if any.
func (w *web) chrome(c echo.Context, title func(*i18n.Catalog) string) views.Chrome {
	t := catalog(c)
	// Times are shown in the zone the person's browser reported to the session, else in the
	// browser's own (its cookie), UTC until either is known.
	ch := views.Chrome{T: t, Title: title(t), Now: w.now(), CSRF: w.sessions.PageCSRFToken(c)}
	ch.Language = languageSwitch(c, ch.CSRF)
	c.Response().Header().Set("Content-Language", t.Lang)
	var zone string
	if d, ok := w.sessions.Current(c.Request()); ok {
		ch.User = &views.User{Name: firstNonEmpty(d.Name, d.Subject), ID: d.Subject, Tenant: d.Tenant, Manager: d.Manager}
		zone = d.TimeZone
	}
	ch.Bell = w.bell(c)
	ch.Location = pageLocation(c, zone)
	ch.TimeZone = ch.Location.String()
	// Submitting and cancelling are told by the task page's status banner instead.
	if f, ok := w.takeFlash(c); ok && f.Key != flashSubmitted && f.Key != flashCancelled {
		ch.Flash = f.view(t)
	}
	return ch
}

// ----- Flash messages -----

// Flash keys: what happened in the request that redirected.
const (
	flashClaimed   = "claimed"
	flashReleased  = "released"
	flashSubmitted = "submitted" // shown as the task page's accepted banner
	flashAssigned  = "assigned"
	flashScheduled = "scheduled"
	flashCancelled = "cancelled"     // shown as the task page's cancelling banner
	flashRetried   = "retried"       // resolved; Code names a remaining advisory finding
	flashRetryHeld = "retry-blocked" // still blocked; Code says why
	flashSignedOut = "signed-out"

	flashSignedOutEverywhere = "signed-out-everywhere"

	flashInvitationsIssued = "invitations-issued" // web_task_invitations.go
	flashInvitationRevoked = "invitation-revoked"
)

// webFlash is a one-time message carried across a redirect in a sealed cookie. It carries a
// key and the task's title, never a rendered sentence, so the next page speaks its own language.
type webFlash struct {
	Key     string `json:"k"`
	Title   string `json:"t,omitempty"`
	TaskID  string `json:"id,omitempty"`
	Code    string `json:"c,omitempty"` // a health code, put in words by the next page
	Note    string `json:"n,omitempty"` // a note kept on the server for the next page (web_task_complete_note.go)
	Why     string `json:"w,omitempty"` // the class of a failed form resolution (models.FormFailure)
	Expires int64  `json:"exp"`
}

// retryFlash tells what a retried resolution achieved: the task is still blocked, and why;
// or nothing blocks it any more, with an advisory finding that remains, if any.
func retryFlash(id string, h models.Health) webFlash {
	f := webFlash{Key: flashRetried, TaskID: id, Code: h.Code}
	if h.Blocking() {
		f.Key, f.Why = flashRetryHeld, string(models.FormFailureOf(h))
	}
	return f
}

// flashLifetime bounds how long a flash waits for the next page.
const flashLifetime = 2 * time.Minute

// setFlash stores a flash for the next page.
func (w *web) setFlash(c echo.Context, f webFlash) {
	f.Expires = w.now().Add(flashLifetime).Unix()
	f.Title = models.Truncate(f.Title, 400)
	if len(f.Code) > 64 {
		f.Code = "" // not a health code; the page falls back to the plain message
	}
	if len(f.Why) > 64 {
		f.Why = ""
	}
	value, err := w.sessions.Seal(websession.FlashCookie, f)
	if err != nil {
		return // a lost flash is cosmetic
	}
	c.SetCookie(w.sessions.Cookie(websession.FlashCookie, value, flashLifetime))
}

// takeFlash reads and deletes the flash; it remembers it for the rest of the request.
func (w *web) takeFlash(c echo.Context) (webFlash, bool) {
	const key = "usertasks.web.flash"
	if f, ok := c.Get(key).(webFlash); ok {
		return f, f.Key != ""
	}
	var f webFlash
	if w.sessions.Open(c.Request(), websession.FlashCookie, &f) && w.now().Unix() < f.Expires {
		c.SetCookie(w.sessions.Cookie(websession.FlashCookie, "", -1))
	} else {
		f = webFlash{}
	}
	c.Set(key, f)
	return f, f.Key != ""
}

// view renders a flash in the page's language.
func (f webFlash) view(t *i18n.Catalog) *views.Flash {
	msg := map[string]string{
		flashClaimed:   t.Format(t.FlashClaimed, f.Title),
		flashReleased:  t.Format(t.FlashReleased, f.Title),
		flashAssigned:  t.FlashAssigned,
		flashScheduled: t.FlashScheduled,
		flashRetried:   t.FlashRetried,
		flashRetryHeld: t.Format(t.FlashRetryBlocked, t.HealthText(f.Code)),
		flashSignedOut: t.FlashSignedOut,

		flashSignedOutEverywhere: t.FlashSignedOutEverywhere,

		flashInvitationsIssued: t.Invitations.FlashIssued,
		flashInvitationRevoked: t.Invitations.FlashRevoked,

		flashNotificationsRead:  t.Notifications.FlashRead,
		flashNotificationsSaved: t.Notifications.FlashSaved,
	}[f.Key]
	msg = firstNonEmpty(msg, viewFlash(t, f), activityFlash(t, f.Key), policyFlash(t, f.Key), delegationFlash(t, f.Key))
	if msg == "" {
		return nil
	}
	if f.Key == flashRetried && f.Code != "" {
		msg = t.Format(t.FlashRetryNote, t.HealthText(f.Code))
	}
	if why := t.Labels.FormFailures[models.FormFailure(f.Why)]; f.Key == flashRetryHeld && why != "" {
		msg = t.Format(t.Labels.RetryFailedAgain, why)
	}
	kind := views.FlashSuccess
	switch f.Key {
	case flashSignedOut, flashSignedOutEverywhere:
		kind = views.FlashInfo
	case flashRetryHeld:
		kind = views.FlashWarning
	}
	return &views.Flash{Kind: kind, Message: msg}
}

// ----- Error pages -----

// errCSRF is the refusal of a POST without a valid CSRF token (403 csrf-refused).
var errCSRF = webguard.ErrCSRF

// webErrorPages renders the errors of page handlers as HTML pages with the right status: the
// same "not found" for missing and invisible tasks, "not allowed" for missing permissions and
// CSRF refusals, "busy" with Retry-After, and a generic page for internal errors, which are
// logged once with the request id.
func (w *web) webErrorPages(next echo.HandlerFunc) echo.HandlerFunc {
	return errorPages(next, w.renderError)
}

// errorPages answers the error of next with the page render makes of it, unless the answer
// has begun; when render fails too, the echo error handler answers the original error.
func errorPages(next echo.HandlerFunc, render func(echo.Context, error) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || c.Response().Committed {
			return err
		}
		if rerr := render(c, err); rerr != nil {
			return err
		}
		return nil
	}
}

func (w *web) renderError(c echo.Context, err error) error {
	pe := w.answerError(c, err, catalog(c))
	if pe.status == http.StatusUnauthorized {
		return c.Redirect(http.StatusSeeOther, "/login")
	}
	m := views.ErrorPage{Status: pe.status, Heading: pe.heading, Message: pe.message}
	m.Chrome = w.chrome(c, func(*i18n.Catalog) string { return pe.heading })
	return w.render(c, pe.status, views.ErrorView(m))
}

// pageError is a page's answer to an error: the status and Retry-After of its problem+json
// answer (problemOf, one table for both) and the catalogue's words for its code.
type pageError struct {
	status           int
	retryAfter       string
	heading, message string
}

// pageErrorOf describes the page answering err.
func pageErrorOf(err error, t *i18n.Catalog) pageError {
	p, kind := problemOf(err)
	return pageError{status: p.Status, retryAfter: kind.retryAfter, heading: errorHeading(t, p.Status), message: t.Problem(p.Code)}
}

// errorHeading titles an error page by its status.
func errorHeading(t *i18n.Catalog, status int) string {
	switch status {
	case http.StatusNotFound:
		return t.NotFoundTitle
	case http.StatusForbidden:
		return t.ForbiddenTitle
	case http.StatusServiceUnavailable:
		return t.BusyTitle
	case http.StatusInternalServerError:
		return t.InternalTitle
	}
	return t.BadRequestTitle
}

// answerError prepares a page's answer to err: an internal error is logged once with the
// request id, and a busy or rate-limited answer says when to retry.
func (w *web) answerError(c echo.Context, err error, t *i18n.Catalog) pageError {
	pe := pageErrorOf(err, t)
	if pe.status == http.StatusInternalServerError {
		logInternal(w.log, c, err)
	}
	if pe.retryAfter != "" {
		c.Response().Header().Set("Retry-After", pe.retryAfter)
	}
	return pe
}

// errBadForm refuses a form post whose hidden fields do not parse.
var errBadForm = echo.NewHTTPError(http.StatusBadRequest, "malformed form")

// conflictMessage reports whether err is a 409 of the service, with the banner text for it.
func conflictMessage(t *i18n.Catalog, err error) (string, bool) {
	var ce *models.ConflictError
	if !errors.As(err, &ce) {
		return "", false
	}
	return t.Problem(ce.Code), true
}

// ----- Small helpers -----

// maxReturnBytes bounds a return address; no page of this site needs a longer one.
const maxReturnBytes = 2048

// localPath accepts a return address only when it is a page of this site (the inbox or a
// task). A browser resolves dot segments itself, encoded ones ("%2e%2e") included, so the
// decoded path is cleaned before the check and the cleaned path is what is returned: the
// page checked is the page the browser goes to.
func localPath(raw string) (string, bool) {
	p, ok := sameSitePath(raw)
	if !ok {
		return "", false
	}
	if u, _ := url.Parse(p); u.Path != "/inbox" && !strings.HasPrefix(u.Path, "/tasks/") {
		return "", false
	}
	return p, true
}

// sameSitePath is raw as a path of this site with its query, cleaned, or false: never a
// scheme, a host, "//" or a backslash a browser reads as one, nor a control character.
func sameSitePath(raw string) (string, bool) {
	if raw == "" || len(raw) > maxReturnBytes || !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") ||
		strings.ContainsFunc(raw, unsafeInURL) {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "", false
	}
	if strings.ContainsFunc(u.Path, unsafeInURL) { // decoded: %5C, %0A, %09, …
		return "", false
	}
	return (&url.URL{Path: path.Clean(u.Path), RawQuery: u.RawQuery}).RequestURI(), true
}

// unsafeInURL reports runes a browser strips or reads as a slash (tab, newline, backslash),
// and the other control characters.
func unsafeInURL(r rune) bool { return r == '\\' || unicode.IsControl(r) }

func queryEscape(s string) string { return url.QueryEscape(s) }

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

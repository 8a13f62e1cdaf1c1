package handlers

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/webguard"
)

// The guest pages (SPEC 5.4 /guest, 6): an invitation link opens the verification screen, the
// verification sets the guest cookie, and the guest sees and completes its one task.
//
//	GET  /guest?t=<token>  the verification screen, alike for every token
//	POST /guest/verify     the token (hidden field) and the code → guest cookie, 303 /guest/task
//	GET  /guest/task       the task with the invitation's actions and the confirmation box
//	POST /guest/complete   completes the task → 303 /guest/done; the cookie is kept an hour more
//	GET  /guest/done       thank you: the task and the answer given, for that cookie only
//
// After the first URL the token is never in a URL again, and no page refers anywhere else: no
// navigation, no sign-in, no workflow, history or other participants. Every failure of a dead or
// invalid token or session is the one generic page (guestFailure).

// guestCookie is the base name of the guest session cookie. It holds the session credential,
// HttpOnly, SameSite=Strict, Secure and "__Host-" outside dev like the session cookie. Its path
// is "/", not "/guest": browsers refuse a "__Host-" cookie with any other path, and the prefix
// (no sibling subdomain can plant or shadow the cookie) is worth more than the narrower path.
// Nothing outside /guest reads it.
const guestCookie = "ut_guest"

// guestPages holds the guest page handlers.
type guestPages struct {
	*web
	guests GuestService
}

// registerGuestPages is the guest pages' route table. limit is the JSON invitation endpoints'
// limiter: verifications from the page and from the API share one budget per remote address.
func (w *web) registerGuestPages(e *echo.Echo, guests GuestService, limit echo.MiddlewareFunc) {
	g := &guestPages{web: w, guests: guests}
	page := []echo.MiddlewareFunc{guestHeaders, g.failures}
	guest := append(slices.Clip(page), g.requireGuest)
	for _, r := range []struct {
		method, path string
		handle       echo.HandlerFunc
		mw           []echo.MiddlewareFunc
	}{
		{http.MethodGet, "/guest", g.verifyPage, page},
		{http.MethodPost, "/guest/verify", g.verify, append(slices.Clip(page), returnErrors(limit), g.requireVerifyCSRF)},
		{http.MethodGet, "/guest/task", g.taskPage, guest},
		{http.MethodPost, "/guest/complete", g.complete, append(slices.Clip(guest), g.requireGuestCSRF)},
		{http.MethodGet, "/guest/done", g.done, page},
	} {
		e.Add(r.method, r.path, r.handle, r.mw...)
	}
}

// returnErrors makes a middleware that answers its refusals itself (echo's rate limiter calls
// c.Error) return them instead, so the guest page answers them with its own page.
func returnErrors(mw echo.MiddlewareFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := mw(next)
		return func(c echo.Context) error {
			kept := &keptError{Context: c}
			if err := h(kept); err != nil {
				return err
			}
			return kept.err
		}
	}
}

// keptError is a context whose Error keeps the error for returnErrors.
type keptError struct {
	echo.Context
	err error
}

func (k *keptError) Error(err error) { k.err = err }

// guestHeaders are the page headers, with no referrer at all (the first URL holds the token)
// and no caching of any answer, redirects included.
func guestHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return webSecurityHeaders(func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Referrer-Policy", "no-referrer")
		h.Set(echo.HeaderCacheControl, "no-store")
		return next(c)
	})
}

// guestRequest is the guest a request's cookie speaks for.
type guestRequest struct {
	actor          models.Actor
	credentialHash string // binds the page's CSRF token
}

const guestRequestKey = "usertasks.guest"

// requireGuest resolves the guest cookie to its guest, on live state at every request; a missing
// cookie is a dead session.
func (g *guestPages) requireGuest(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(g.sessions.CookieName(guestCookie))
		if err != nil {
			return models.ErrGuestDenied
		}
		a, err := g.guests.Session(c.Request().Context(), ck.Value)
		if err != nil {
			return err
		}
		c.Set(guestRequestKey, guestRequest{actor: a, credentialHash: invitations.HashSecret(ck.Value)})
		return next(c)
	}
}

// requireVerifyCSRF refuses a verification post from another origin or without the anonymous
// binding's token (the verification screen's, whoever else is signed in in this browser).
func (g *guestPages) requireVerifyCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !g.sessions.CheckGuestVerifyCSRF(c.Request(), c.Request().PostFormValue(views.CSRFField)) {
			return webguard.ErrCSRF
		}
		return next(c)
	}
}

// requireGuestCSRF refuses a guest post from another origin or without its guest session's
// token.
func (g *guestPages) requireGuestCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		gr := guestOf(c)
		if !g.sessions.CheckGuestCSRF(c.Request(), gr.credentialHash, c.Request().PostFormValue(views.CSRFField)) {
			return webguard.ErrCSRF
		}
		return next(c)
	}
}

func guestOf(c echo.Context) guestRequest {
	gr, _ := c.Get(guestRequestKey).(guestRequest)
	return gr
}

// setGuestCookie sets (maxAge > 0) or clears (maxAge < 0) the guest cookie.
func (g *guestPages) setGuestCookie(c echo.Context, value string, maxAge time.Duration) {
	ck := g.sessions.Cookie(guestCookie, value, maxAge)
	ck.SameSite = http.SameSiteStrictMode
	c.SetCookie(ck)
}

// guestChrome is what every guest page shares: the language, the title, the CSRF token of its
// form. Times are in the browser's own zone (its cookie, static/timezone.js), UTC without it:
// a guest has no settings.
func (g *guestPages) guestChrome(c echo.Context, title, csrf string) views.Chrome {
	t := catalog(c)
	c.Response().Header().Set("Content-Language", t.Lang)
	loc := pageLocation(c, "")
	return views.Chrome{T: t, Title: title, Now: g.now(), Location: loc, TimeZone: loc.String(), CSRF: csrf,
		Language: languageSwitch(c, g.sessions.CSRFToken(c.Response(), c.Request(), nil))}
}

// verifyPage handles GET /guest?t=<token>: the same screen for every token, valid or not.
func (g *guestPages) verifyPage(c echo.Context) error {
	token := c.QueryParam("t")
	ch, err := g.guests.Challenge(c.Request().Context(), token)
	if err != nil {
		return err
	}
	return g.renderVerify(c, http.StatusOK, token, ch.RequiresCode, "")
}

// verify handles POST /guest/verify: the token from the hidden field and the code. Success sets
// the guest cookie and goes to the task. The right code of a link used already (its task opened
// or completed) gets a page saying so; any other refusal shows the verification screen again
// with one message for a wrong code and a dead link alike.
func (g *guestPages) verify(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Request().PostFormValue("t")
	code := strings.ReplaceAll(strings.TrimSpace(c.Request().PostFormValue("code")), " ", "")
	v, err := g.guests.Verify(ctx, token, code)
	if errors.Is(err, models.ErrGuestLinkUsed) { // the right code: it may learn why
		t := catalog(c).Guest
		return g.notice(c, guestDeniedStatus(), views.GuestNotice{Kind: "guest-used", Heading: t.UsedTitle, Message: t.UsedText})
	}
	if errors.Is(err, models.ErrGuestDenied) {
		ch, err := g.guests.Challenge(ctx, token)
		if err != nil {
			return err
		}
		return g.renderVerify(c, guestDeniedStatus(), token, ch.RequiresCode, catalog(c).Guest.VerifyFailed)
	}
	if err != nil {
		return err
	}
	g.setGuestCookie(c, v.Credential, max(v.ExpiresAt.Sub(g.now()), time.Second))
	return c.Redirect(http.StatusSeeOther, "/guest/task")
}

func (g *guestPages) renderVerify(c echo.Context, status int, token string, requiresCode bool, msg string) error {
	if !invitations.PlausibleSecret(token) {
		token = "" // nothing to carry on; the page looks the same
	}
	t := catalog(c)
	csrf := g.sessions.CSRFToken(c.Response(), c.Request(), nil) // the anonymous binding's
	m := views.GuestVerifyPage{Chrome: g.guestChrome(c, t.Guest.VerifyTitle, csrf),
		Token: token, RequiresCode: requiresCode, Error: msg}
	return g.render(c, status, views.GuestVerifyView(m))
}

// guestState is what a render of the guest task page keeps from a refused post.
type guestState struct {
	status       int
	complete     *completeState
	conflict     string
	confirmed    bool
	confirmError string
}

// taskPage handles GET /guest/task.
func (g *guestPages) taskPage(c echo.Context) error {
	a := guestOf(c).actor
	d, err := g.tasks.Detail(c.Request().Context(), a, a.Guest.TaskID)
	if err != nil {
		return err
	}
	return g.renderTask(c, d, guestState{})
}

// complete handles POST /guest/complete: without the "submitting is final" box the page comes
// back with its values and a message; otherwise the service completes the task from the posted
// values (one load, one parse), the invitation is consumed (which ends the session) and the cookie
// is kept models.GuestDoneFor more: the done page shows this browser what it answered.
func (g *guestPages) complete(c echo.Context) error {
	ctx, gr := c.Request().Context(), guestOf(c)
	a := gr.actor
	in, err := webCommon(c)
	if err != nil {
		return err
	}
	posted, err := c.FormParams()
	if err != nil {
		return errBadForm
	}
	action := c.FormValue("action")
	keep := &completeState{values: posted, revision: in.ExpectedRevision}
	switch {
	case c.FormValue(views.GuestConfirmField) != views.GuestConfirmValue:
		return g.refuse(c, guestState{complete: keep, confirmError: catalog(c).Guest.ConfirmMissing})
	case !slices.ContainsFunc(a.Guest.AllowedActions, func(k string) bool { return strings.EqualFold(k, action) }):
		// The service would answer "not found" (the guest may not take it); the page only
		// offers the allowed actions, so this is a forged post: the form again, session intact.
		keep.code = models.CodeInvalidAction
		return g.refuse(c, guestState{complete: keep, confirmed: true})
	}
	res, err := g.tasks.CompleteForm(ctx, a, a.Guest.TaskID,
		tasks.FormCompleteInput{Common: in, ActionKey: action, Values: posted})
	if err == nil {
		if err := g.guests.Completed(ctx, a); err != nil {
			// The completion stands, and the session died with the task leaving Assigned.
			g.log.WarnContext(ctx, "consuming a completed guest invitation failed", "error", err.Error(),
				"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
		}
		if ck, err := c.Cookie(g.sessions.CookieName(guestCookie)); err == nil {
			g.setGuestCookie(c, ck.Value, models.GuestDoneFor)
		}
		return c.Redirect(http.StatusSeeOther, "/guest/done")
	}
	if res.Page == nil {
		return err
	}
	st := guestState{complete: keep, confirmed: true}
	if msg, ok := conflictMessage(catalog(c), err); ok {
		keep.revision = 0 // the banner says what changed; the kept input goes with the new revision
		st.status, st.conflict = http.StatusConflict, msg
		return g.renderTask(c, *res.Page, st)
	}
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		keep.errors, keep.code = ve.Fields, ve.Code
		st.status = http.StatusUnprocessableEntity
		return g.renderTask(c, *res.Page, st)
	}
	return err
}

// refuse shows the task page again, 422, with what st keeps of the refused post.
func (g *guestPages) refuse(c echo.Context, st guestState) error {
	a := guestOf(c).actor
	d, err := g.tasks.Detail(c.Request().Context(), a, a.Guest.TaskID)
	if err != nil {
		return err
	}
	st.status = http.StatusUnprocessableEntity
	return g.renderTask(c, d, st)
}

// renderTask renders the task as its guest sees it: the task page's form, posting here, with
// the invitation's actions only and nothing to reveal.
func (g *guestPages) renderTask(c echo.Context, d tasks.Detail, st guestState) error {
	gr, t := guestOf(c), d.Task
	m := views.GuestTaskPage{Chrome: g.guestChrome(c, t.Title, g.sessions.GuestCSRFToken(gr.credentialHash)),
		Title: t.Title, Summary: t.Summary, Due: t.DueAt, Overdue: t.OverdueAt(g.now()),
		Conflict: st.conflict, Confirmed: st.confirmed, ConfirmError: st.confirmError}
	if d.Disclosure.CanViewProtected {
		m.Instructions = views.ParseMarkdown(c.Request().Context(), t.Protected.Instructions)
	}
	f := taskForm(m.Clock(), d, taskState{complete: st.complete})
	if f == nil || !f.Editable {
		return models.ErrGuestDenied // the guest may no longer complete: its access is over
	}
	f.RevealAction = ""
	f.Actions = slices.DeleteFunc(f.Actions, func(b views.ActionButton) bool {
		return !slices.Contains(gr.actor.Guest.AllowedActions, b.Key)
	})
	if f.Error == "" && st.confirmError != "" {
		f.Error = st.confirmError
	}
	m.Form = *f
	status := st.status
	if status == 0 {
		status = http.StatusOK
	}
	return g.render(c, status, views.GuestTaskView(m))
}

// done handles GET /guest/done: the task and the answer its guest gave, for the browser whose
// guest completed it, within models.GuestDoneFor; any other browser gets the one generic page,
// which names nothing.
func (g *guestPages) done(c echo.Context) error {
	ck, err := c.Cookie(g.sessions.CookieName(guestCookie))
	if err != nil {
		return models.ErrGuestDenied
	}
	task, err := g.guests.Done(c.Request().Context(), ck.Value)
	if err != nil {
		return err
	}
	answer := task.Outcome.ActionKey
	if a, ok := task.FindAction(answer); ok && a.Label != "" {
		answer = a.Label
	}
	t := catalog(c)
	return g.render(c, http.StatusOK, views.GuestDoneView(views.GuestDonePage{
		Chrome: g.guestChrome(c, t.Guest.DoneTitle, ""), Title: task.Title, Answer: answer}))
}

func (g *guestPages) notice(c echo.Context, status int, n views.GuestNotice) error {
	n.Chrome, n.Status = g.guestChrome(c, n.Heading, ""), status
	return g.render(c, status, views.GuestNoticeView(n))
}

// render writes a guest page (web.render: buffered, no-store).
func (g *guestPages) render(c echo.Context, status int, page templ.Component) error {
	return g.web.render(c, status, page)
}

// failures answers every error of a guest page with a guest page: the one generic page for a
// dead or invalid token or session (the cookie cleared), and otherwise a page that names no
// task and links nowhere.
func (g *guestPages) failures(next echo.HandlerFunc) echo.HandlerFunc {
	return errorPages(next, g.guestFailure)
}

func (g *guestPages) guestFailure(c echo.Context, err error) error {
	t := catalog(c).Guest
	switch code := models.ErrorCode(err); {
	case errors.Is(err, webguard.ErrCSRF):
		return g.notice(c, http.StatusForbidden, views.GuestNotice{Kind: "guest-refused", Heading: t.RefusedTitle, Message: t.RefusedText})
	case code == models.CodeGuestAccessDenied, code == models.CodeNotFound, code == models.CodeUnauthenticated, code == models.CodeForbidden:
		g.setGuestCookie(c, "", -1)
		return g.notice(c, guestDeniedStatus(), views.GuestNotice{Kind: "guest-invalid", Heading: t.InvalidTitle, Message: t.InvalidText})
	case code == models.CodeRateLimited:
		pe := g.answerError(c, err, catalog(c)) // Retry-After
		return g.notice(c, pe.status, views.GuestNotice{Kind: "guest-rate-limited", Heading: t.RateLimitedTitle, Message: t.RateLimitedText})
	}
	pe := g.answerError(c, err, catalog(c)) // logs internal errors once; Retry-After when busy
	return g.notice(c, pe.status, views.GuestNotice{Kind: "guest-failed", Heading: t.FailedTitle, Message: t.FailedText})
}

// guestDeniedStatus is the status of the one generic guest refusal: the JSON API's.
func guestDeniedStatus() int {
	p, _ := problemOf(models.ErrGuestDenied)
	return p.Status
}

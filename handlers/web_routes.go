package handlers

import (
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/live"
	"usertasks/models"
	"usertasks/oidclogin"
	"usertasks/webguard"
	"usertasks/websession"
)

// WebDeps are what the web pages need.
type WebDeps struct {
	Tasks TaskService
	// Sessions keeps the browser sessions; RegisterWeb makes the dev users and the OIDC login
	// the sources it re-reads identities from.
	Sessions *websession.Manager
	// DevUsers enables the dev login (SPEC 9: dev mode only); empty means no dev login.
	DevUsers []DevUser
	// OIDC enables the OIDC login; nil means none.
	OIDC   *oidclogin.Login
	Logger *slog.Logger
	// Now is the clock for relative times; nil means time.Now.
	Now func() time.Time
	// Dashboard serves the managers' console (/manage, /manage/runs); nil leaves it out.
	Dashboard DashboardService
	// Inbox enables saved views and the workflow choices of the inbox; nil means neither.
	Inbox InboxService
	// DevMailbox enables the dev mailbox page (dev mode only); nil leaves it out.
	DevMailbox DevMailbox
	// Invitations enables the Manage panel's guest links (web_task_invitations.go); nil leaves them out.
	Invitations InvitationService
	// Unsubscribe serves the one-click unsubscribe link of notification email
	// (notify_unsubscribe.go); nil leaves it out.
	Unsubscribe NotifyUnsubscriber

	// guests enables the guest pages, with the guest API's limiter (New sets both from Deps).
	guests     GuestService
	guestLimit echo.MiddlewareFunc
	// notices, people and live serve the bell, the notification pages and the recording of
	// who signs in (New sets them from Deps.Notifications and Deps.Live).
	notices NotificationStore
	people  *peopleRecorder
	live    *live.Broker
	// attachments serves the Activity section's files (New sets it from Deps.Attachments).
	attachments AttachmentService
	// policies serves the deadline policy pages (New sets it from Deps.DeadlinePolicies).
	policies DeadlinePolicyService
}

// web holds the page handlers. Each parses its request, calls the service, and renders a page
// or redirects; errors become HTML error pages (webErrorPages), never problem+json.
type web struct {
	tasks    TaskService
	sessions *webguard.Guard
	devUsers []DevUser
	oidc     *oidclogin.Login
	log      *slog.Logger
	now      func() time.Time
	// headers sets the pages' security headers (web_logout.go: forms may lead to the
	// provider's end-session endpoint).
	headers echo.MiddlewareFunc

	dashboard DashboardService
	lists     InboxService
	mailbox   DevMailbox
	invites   InvitationService
	notices   NotificationStore // nil: no bell, no notification pages
	people    *peopleRecorder
	live      *live.Broker
	// attachments: the Activity section's files and upload (web_task_activity.go); nil: none.
	attachments AttachmentService
	// policies: the managers' deadline policy pages (web_manage_policies.go); nil: none.
	policies DeadlinePolicyService
}

// RegisterWeb adds the web pages (SPEC 5.4) to e. Middleware is attached per route, not to a
// group, so unknown paths and the JSON API keep their own answers.
func RegisterWeb(e *echo.Echo, d WebDeps) {
	if d.Tasks == nil || d.Sessions == nil {
		panic("handlers: RegisterWeb needs Tasks and Sessions")
	}
	w := &web{tasks: d.Tasks, devUsers: d.DevUsers, oidc: d.OIDC, log: d.Logger, now: d.Now, dashboard: d.Dashboard, lists: d.Inbox, invites: d.Invitations,
		notices: d.notices, people: d.people, live: d.live, attachments: d.attachments, policies: d.policies}
	if w.log == nil {
		w.log = slog.Default()
	}
	w.sessions = webguard.New(d.Sessions, w.log, "/login")
	if len(d.DevUsers) > 0 {
		d.Sessions.SetIdentitySource(models.WebViaDev, devDirectory(d.DevUsers))
	}
	if d.OIDC != nil {
		d.Sessions.SetIdentitySource(models.WebViaOIDC, d.OIDC)
	}
	if w.now == nil {
		w.now = time.Now
	}
	w.headers = w.pageHeaders()
	page := []echo.MiddlewareFunc{w.headers, w.webErrorPages}
	signedIn := []echo.MiddlewareFunc{w.headers, w.webErrorPages, w.sessions.RequireSession, w.recordVisit}
	posted := []echo.MiddlewareFunc{w.headers, w.webErrorPages, w.sessions.RequireSession, w.sessions.RequireCSRF, w.recordVisit}
	signInPosted := []echo.MiddlewareFunc{w.headers, w.webErrorPages, w.sessions.RequireSignInCSRF}

	for _, r := range []struct {
		method, path string
		handle       echo.HandlerFunc
		mw           []echo.MiddlewareFunc
	}{
		{http.MethodGet, "/", w.home, page},
		{http.MethodGet, "/login", w.loginPage, page},
		{http.MethodPost, "/login/dev", w.devLogin, signInPosted},
		{http.MethodGet, "/login/oidc", w.oidcStart, page},
		{http.MethodGet, "/login/oidc/callback", w.oidcCallback, page},
		{http.MethodPost, "/logout", w.logout, page}, // checks the token itself: only a session has one
		{http.MethodPost, "/logout/everywhere", w.logoutEverywhere, posted},
		{http.MethodPost, "/session/time-zone", w.setTimeZone, posted},
		{http.MethodPost, "/language", w.setLanguage, page}, // checks the token itself: sessions and sign-in pages

		{http.MethodGet, "/inbox", w.inbox, signedIn},
		{http.MethodGet, "/inbox/views", w.manageViews, append(slices.Clip(signedIn), w.withInbox)},
		{http.MethodPost, "/inbox/views", w.saveView, append(slices.Clip(posted), w.withInbox)},
		{http.MethodPost, "/inbox/views/:id/rename", w.renameView, append(slices.Clip(posted), w.withInbox)},
		{http.MethodPost, "/inbox/views/:id/delete", w.deleteView, append(slices.Clip(posted), w.withInbox)},
		{http.MethodGet, "/tasks/:id", w.taskPage, signedIn},
		{http.MethodGet, "/tasks/:id/access", w.accessPage, signedIn},
		{http.MethodPost, "/tasks/bulk", w.bulkTasks, posted},
		{http.MethodGet, "/tasks/bulk/:id", w.bulkResult, signedIn},
		{http.MethodPost, "/tasks/:id/claim", command(w.claimTask), posted},
		{http.MethodPost, "/tasks/:id/release", command(w.releaseTask), posted},
		{http.MethodPost, "/tasks/:id/complete", command(w.completeTask), posted},
		{http.MethodGet, "/tasks/:id/complete", w.completeForm, signedIn},
		{http.MethodPost, "/tasks/:id/reveal", w.revealField, posted},
		{http.MethodPost, "/tasks/:id/assign", command(w.assignTask), posted},
		{http.MethodPost, "/tasks/:id/delegate", command(w.delegateTask), posted},
		{http.MethodPost, "/tasks/:id/return", command(w.returnTask), posted},
		{http.MethodPost, "/tasks/:id/schedule", command(w.scheduleTask), posted},
		{http.MethodPost, "/tasks/:id/cancel", command(w.cancelTask), posted},
		{http.MethodPost, "/tasks/:id/retry-resolution", command(w.retryResolution), posted},

		// Out of office (web_absence.go): one's own, and the managers' for a person.
		{http.MethodGet, ownAbsencePath, w.absencePage, signedIn},
		{http.MethodPost, ownAbsencePath, w.saveAbsence, posted},
		{http.MethodPost, ownAbsencePath + "/delete", w.removeAbsence, posted},
		{http.MethodGet, teamAbsencePath, w.teamAbsencePage, signedIn},
		{http.MethodPost, teamAbsencePath, w.saveTeamAbsence, posted},
		{http.MethodPost, teamAbsencePath + "/delete", w.removeTeamAbsence, posted},

		{http.MethodGet, "/static/*", webStatic, []echo.MiddlewareFunc{webSecurityHeaders}},
		{http.MethodGet, "/favicon.ico", webFavicon, []echo.MiddlewareFunc{webSecurityHeaders}},
	} {
		e.Add(r.method, r.path, r.handle, r.mw...)
	}
	// The Activity section (web_task_activity.go); the upload checks its token itself.
	e.POST("/tasks/:id/comments", command(w.addTaskComment), posted...)
	e.POST("/tasks/:id/comments/:commentId/delete", command(w.deleteTaskComment), posted...)
	if w.attachments != nil {
		e.POST(webAttachmentsRoute, w.uploadTaskFile, w.headers, w.webErrorPages, w.sessions.RequireSession, w.recordVisit)
		e.POST("/tasks/:id/attachments/:attachmentId/delete", command(w.deleteTaskAttachment), posted...)
	}
	if w.invites != nil {
		e.POST("/tasks/:id/invitations", command(w.issueInvitations), posted...)
		e.POST("/tasks/:id/invitations/:invitationId/revoke", command(w.revokeInvitation), posted...)
	}
	if d.guests != nil {
		w.registerGuestPages(e, d.guests, d.guestLimit)
	}
	if w.dashboard != nil {
		e.GET("/manage", w.manageDashboard, signedIn...)
		e.GET("/manage/runs", w.manageRuns, signedIn...)
	}
	if w.policies != nil {
		w.registerPolicyPages(e, signedIn, posted)
	}
	w.registerDevMailbox(e, d.DevMailbox, signedIn)
	if d.Unsubscribe != nil {
		w.registerUnsubscribe(e, d.Unsubscribe)
	}
	if w.notices != nil {
		e.GET("/notifications", w.notificationsPage, signedIn...)
		e.POST("/notifications/read", w.markNotificationsRead, posted...)
		e.GET("/settings/notifications", w.notificationSettings, signedIn...)
		e.POST("/settings/notifications", w.saveNotificationSettings, posted...)
	}
	e.HTTPErrorHandler = w.browserErrors(e.HTTPErrorHandler)
}

// home handles GET /: the inbox is the start page. In dev mode an anonymous visitor is signed
// in as the first demo user, so `make run` opens straight onto the demo inbox; /login still
// lists every demo user to switch to.
func (w *web) home(c echo.Context) error {
	if len(w.devUsers) == 0 {
		return c.Redirect(http.StatusSeeOther, "/inbox")
	}
	if _, signedIn := w.sessions.Current(c.Request()); !signedIn {
		first := w.devUsers[0].actor()
		if err := w.sessions.SignIn(c, first, models.WebViaDev, models.WebTokens{}); err != nil {
			return err
		}
		w.adoptTimeZone(c, "")
		if first.Manager {
			// A manager's own tabs may be empty; the demo opens on the whole tenant.
			return c.Redirect(http.StatusSeeOther, "/inbox?tab=all")
		}
	}
	return c.Redirect(http.StatusSeeOther, "/inbox")
}

// pageSession is the signed-in person as the page handlers see them.
type pageSession struct{ websession.Session }

// actor is the actor the session speaks for.
func (d pageSession) actor() models.Actor { return d.Actor() }

// webSession returns the session the guard found.
func webSession(c echo.Context) (pageSession, bool) {
	d, ok := webguard.Session(c)
	return pageSession{d}, ok
}

// webActor returns the signed-in actor; the zero actor (refused by every service call) when
// there is none.
func webActor(c echo.Context) models.Actor {
	d, ok := webSession(c)
	if !ok {
		return models.Actor{}
	}
	return d.actor()
}

// webLocation is the signed-in person's time zone; UTC when there is none.
func webLocation(c echo.Context) *time.Location {
	if d, ok := webSession(c); ok {
		return d.Location()
	}
	return time.UTC
}

// webSecurityHeaders sets the headers of every page and asset: a CSP without inline script or
// style and nothing from other origins, no framing, no sniffing, a strict referrer policy.
func webSecurityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return webSecurityHeadersWith("")(next)
}

// webSecurityHeadersWith is webSecurityHeaders whose CSP also lets forms lead to formOrigin
// (a redirect after a form post counts as the form's target).
func webSecurityHeadersWith(formOrigin string) echo.MiddlewareFunc {
	formAction := "form-action 'self'"
	if formOrigin != "" {
		formAction += " " + formOrigin
	}
	csp := "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"font-src 'self'; connect-src 'self'; " + formAction + "; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Frame-Options", "DENY")
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
			return next(c)
		}
	}
}

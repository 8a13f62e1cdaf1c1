// Package handlers holds the echo handlers: pages, JSON API, runtime protocol, guest API,
// middleware and the one error mapper.
package handlers

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"usertasks/live"
	"usertasks/models"
)

// Deps are what the handlers need from the rest of the application.
type Deps struct {
	Store  Readiness
	Logger *slog.Logger
	// Tasks serves the JSON API; without it the /api/v1/user-tasks routes are not registered.
	Tasks TaskService
	// Auth resolves bearer tokens; without it every authenticated route answers 401.
	Auth Authenticator
	// Web enables the pages and browser sessions (which the JSON API then also accepts).
	Web *WebDeps
	// Runtime enables the workflow runtime protocol.
	Runtime *RuntimeDeps
	// Reconciliation reports the last reconciliation run to managers.
	Reconciliation ReconciliationReport
	// Inbox enables the saved views API (/api/v1/user-task-views).
	Inbox InboxService
	// Invitations serves the guest invitations API (api_invitations.go); nil leaves it out.
	Invitations InvitationService
	// Live and Watchers enable the live-update stream.
	Live     *live.Broker
	Watchers StreamAuthorizer
	// Metrics observes every request and may serve /metrics (metrics.go).
	Metrics *MetricsDeps
	// Guests enables the guest API (SPEC 5.3); it needs Tasks.
	Guests GuestService
	// Tracer, when set, gives every request a server span (tracing.go); nil traces nothing.
	Tracer RequestTracer
	// Attachments serves the files on tasks (api_attachments.go); nil leaves them out.
	Attachments AttachmentService
	// DeadlinePolicies serves the managers' default deadline policies per workflow definition
	// (API and pages, api_deadline_policy.go); nil leaves them out.
	DeadlinePolicies DeadlinePolicyService
	// Notifications serves the in-app notifications (API, pages, the bell) and records the
	// people behind authenticated requests (people_record.go); nil leaves all of it out.
	Notifications NotificationStore
	// IPExtractor decides a request's remote address (rate limits); default the peer address,
	// never a forwarding header.
	IPExtractor echo.IPExtractor

	guestLimit echo.MiddlewareFunc // set by New: one limiter for the guest API and the guest page
	people     *peopleRecorder     // set by New when Notifications is
}

// RuntimeDeps are the two halves of the runtime protocol.
type RuntimeDeps struct {
	Projector RuntimeProjector
	Finalizer RuntimeFinalizer
}

// New builds the HTTP server's router. All routes are registered here, one table per area.
func New(d Deps) *echo.Echo {
	log := d.Logger
	if log == nil {
		log = slog.Default()
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(log)
	e.IPExtractor = d.IPExtractor
	if e.IPExtractor == nil {
		e.IPExtractor = echo.ExtractIPDirect()
	}
	// One budget per remote address for the JSON invitation endpoints and the guest page.
	d.guestLimit = guestRateLimit()
	if d.Notifications != nil {
		d.people = newPeopleRecorder(d.Notifications, log, nil)
	}
	e.Use(acceptRequestID, middleware.RequestID(), baseSecurityHeaders)
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		// The error handler logs the panic once, as an internal error with the request id.
		LogErrorFunc: func(_ echo.Context, err error, stack []byte) error {
			return fmt.Errorf("panic: %w\n%s", err, stack)
		},
	}))
	// The attachment upload bounds its own body (api_attachments.go).
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: fmt.Sprintf("%dB", models.MaxRequestBodyBytes), Skipper: isAttachmentUpload}))
	e.Use(refuseCrossSiteWrites)
	var observe RequestObserver
	if d.Metrics != nil {
		observe = d.Metrics.Requests
	}
	if d.Tracer != nil {
		e.Use(traceRequests(d.Tracer))
	}
	e.Use(requestLog(d.Logger, observe))

	e.GET("/healthz", healthz)
	e.GET("/readyz", readyz(d.Store))
	registerMetrics(e, d.Metrics)
	registerAPI(e, d)
	if d.Runtime != nil {
		RegisterRuntime(e.Group("/api/v1/runtime"), d.Runtime.Projector, d.Runtime.Finalizer, authenticate(d.Auth))
	}
	if d.Reconciliation != nil {
		e.GET("/api/v1/reconciliation", getReconciliation(d.Reconciliation), authenticateWith(d))
	}
	if d.Web != nil {
		web := *d.Web
		web.guests, web.guestLimit = d.Guests, d.guestLimit
		web.notices, web.people, web.live = d.Notifications, d.people, d.Live
		web.attachments = d.Attachments   // the task page's Activity section (web_task_activity.go)
		web.policies = d.DeadlinePolicies // the managers' deadline policy pages
		RegisterWeb(e, web)
	}
	if d.Live != nil {
		RegisterStream(e.Group("/api/v1"), d.Live, d.Watchers, authenticateWith(d))
	}
	return e
}

// authenticateWith is the JSON API's authentication: a bearer token, or else the browser
// session cookie when the pages are enabled.
func authenticateWith(d Deps) echo.MiddlewareFunc {
	mw := authenticate(d.Auth)
	if d.Web != nil && d.Web.Sessions != nil {
		mw = authenticateOr(d.Auth, d.Web.Sessions)
	}
	if d.people == nil {
		return mw
	}
	// Who the product knows: the caller is recorded (throttled) once authenticated.
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return mw(func(c echo.Context) error {
			d.people.visit(c.Request().Context(), actorOf(c), "", "")
			return next(c)
		})
	}
}

// registerAPI is the JSON API's route table (SPEC 5.1). Every route but the OpenAPI document
// requires a caller; the middleware is added per route, not on the group, so unknown paths
// stay 404 and wrong methods 405.
func registerAPI(e *echo.Echo, d Deps) {
	v1 := e.Group("/api/v1")
	v1.GET("/openapi.json", openAPIDocument)
	if d.Tasks == nil {
		return
	}
	h := &taskAPI{tasks: d.Tasks, live: d.Live}
	authed := authenticateWith(d)
	for _, r := range []struct {
		method, path string
		handle       echo.HandlerFunc
	}{
		{http.MethodGet, "/user-tasks/capabilities", h.capabilities},
		{http.MethodGet, "/user-tasks", h.listTasks},
		{http.MethodPost, "/user-tasks/bulk", h.bulkTasks},
		{http.MethodGet, "/user-tasks/:id", h.getTask},
		{http.MethodPatch, "/user-tasks/:id", h.updateSchedule},
		{http.MethodGet, "/user-tasks/:id/events", h.listEvents},
		{http.MethodPost, "/user-tasks/:id/claim", h.claimTask},
		{http.MethodPost, "/user-tasks/:id/release", h.releaseTask},
		{http.MethodPost, "/user-tasks/:id/assign", h.assignTask},
		{http.MethodPost, "/user-tasks/:id/delegate", h.delegateTask},
		{http.MethodPost, "/user-tasks/:id/return", h.returnTask},
		{http.MethodPost, "/user-tasks/:id/complete", h.completeTask},
		{http.MethodPost, "/user-tasks/:id/cancel", h.cancelTask},
		{http.MethodPost, "/user-tasks/:id/retry-resolution", h.retryResolution},
		{http.MethodPost, "/user-tasks/:id/reveal", h.revealField},
		{http.MethodGet, "/user-tasks/:id/access", h.explainAccess},
		{http.MethodPost, "/user-tasks/:id/comments", h.addComment},
		{http.MethodGet, "/user-tasks/:id/comments", h.listComments},
		{http.MethodDelete, "/user-tasks/:id/comments/:commentId", h.deleteComment},
		{http.MethodGet, "/user-task-participants", h.listParticipants},
		{http.MethodGet, "/me/absence", h.getAbsence},
		{http.MethodPut, "/me/absence", h.putAbsence},
		{http.MethodDelete, "/me/absence", h.deleteAbsence},
		{http.MethodGet, "/user-task-participants/:id/absence", h.getAbsence},
		{http.MethodPut, "/user-task-participants/:id/absence", h.putAbsence},
		{http.MethodDelete, "/user-task-participants/:id/absence", h.deleteAbsence},
	} {
		v1.Add(r.method, r.path, r.handle, authed)
	}
	if d.Inbox != nil {
		registerViewsAPI(v1, d.Inbox, authed)
	}
	if d.Guests != nil {
		registerGuestAPI(v1, d.Guests, d.Tasks, d.guestLimit, d.Logger)
	}
	if d.Invitations != nil {
		registerInvitationsAPI(v1, d.Invitations, authed)
	}
	if d.Notifications != nil {
		registerNotificationsAPI(v1, d.Notifications, d.Live, authed)
	}
	if d.Attachments != nil {
		registerAttachmentsAPI(v1, d.Attachments, authed, d.Logger, d.Live)
	}
	if d.DeadlinePolicies != nil {
		registerDeadlinePolicyAPI(v1, d.DeadlinePolicies, authed)
	}
}

package handlers

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/tasks"
)

// GuestService verifies invitations and resolves guest sessions (SPEC 5.3, 6);
// *invitations.Guests satisfies it. Every refusal is models.ErrGuestDenied.
type GuestService interface {
	Challenge(ctx context.Context, token string) (invitations.Challenge, error)
	Verify(ctx context.Context, token, code string) (invitations.Verification, error)
	Session(ctx context.Context, credential string) (models.Actor, error)
	Completed(ctx context.Context, a models.Actor) error
	Done(ctx context.Context, credential string) (models.Task, error)
}

// The anonymous invitation endpoints allow guestAttempts requests per guestWindow per remote
// address: a token bucket of guestAttempts refilled one request every guestWindow/guestAttempts.
const (
	guestAttempts = 10
	guestWindow   = 5 * time.Minute
)

// guestSessionScheme is the Authorization scheme of guest sessions. Only the two session
// endpoints accept it; everywhere else it is an unknown scheme, 401.
const guestSessionScheme = "UserTaskSession"

// guestInvitationPrefix is where invitation tokens appear in a path; the request log never
// writes what follows it.
const guestInvitationPrefix = "/api/v1/user-task-invitations/"

// guestRateLimit limits requests per remote address (echo's RealIP, which the router's
// IPExtractor decides: the peer address unless proxies are trusted). Over the limit the answer
// is 429 rate-limited with Retry-After. Build it once per router and share it between
// everything anonymous that takes invitation tokens: the budget is per address, not per route.
func guestRateLimit() echo.MiddlewareFunc {
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: rate.Every(guestWindow / guestAttempts), Burst: guestAttempts, ExpiresIn: guestWindow,
	})
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store:               store,
		IdentifierExtractor: func(c echo.Context) (string, error) { return c.RealIP(), nil },
		DenyHandler: func(echo.Context, string, error) error {
			return models.Invalid(models.CodeRateLimited)
		},
		ErrorHandler: func(echo.Context, error) error { return models.Invalid(models.CodeRateLimited) },
	})
}

// guestAPI holds the anonymous guest endpoints of SPEC 5.3.
type guestAPI struct {
	guests GuestService
	tasks  TaskService
	log    *slog.Logger
}

// registerGuestAPI is the guest API's route table: the invitation endpoints are anonymous and
// rate limited; the session endpoints take `Authorization: UserTaskSession <credential>`.
func registerGuestAPI(v1 *echo.Group, guests GuestService, svc TaskService, limit echo.MiddlewareFunc, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	h := &guestAPI{guests: guests, tasks: svc, log: log}
	session := guestSession(guests)
	v1.GET("/user-task-invitations/:token", h.getChallenge, noStore, limit)
	v1.POST("/user-task-invitations/:token/verify", h.verifyInvitation, noStore, limit)
	v1.GET("/user-task-sessions/current", h.getSessionTask, session)
	v1.POST("/user-task-sessions/current/complete", h.completeSessionTask, session)
}

// noStore keeps answers about invitations out of caches.
func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		return next(c)
	}
}

// guestSession resolves `Authorization: UserTaskSession <credential>` to the guest actor, on
// live state at every request. A missing or other credential, like a dead session, is the one
// generic guest-access-denied.
func guestSession(guests GuestService) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
			scheme, credential, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
			if !ok || !strings.EqualFold(scheme, guestSessionScheme) {
				return models.ErrGuestDenied
			}
			a, err := guests.Session(c.Request().Context(), strings.TrimSpace(credential))
			if err != nil {
				return err
			}
			c.Set(actorKey, a)
			return next(c)
		}
	}
}

// challengeJSON answers GET /api/v1/user-task-invitations/:token, alike for every token.
type challengeJSON struct {
	ChallengeType string `json:"challengeType"`
	Prompt        string `json:"prompt"`
	RequiresCode  bool   `json:"requiresCode"`
}

// getChallenge handles GET /api/v1/user-task-invitations/:token.
func (h *guestAPI) getChallenge(c echo.Context) error {
	ch, err := h.guests.Challenge(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, challengeJSON{ChallengeType: ch.ChallengeType, Prompt: ch.Prompt, RequiresCode: ch.RequiresCode})
}

// verifyRequest is the body of POST /api/v1/user-task-invitations/:token/verify.
type verifyRequest struct {
	Code string `json:"code"`
}

// verificationJSON is a successful verification: the session credential, shown this once.
type verificationJSON struct {
	SessionCredential string `json:"sessionCredential"`
	TaskID            string `json:"taskId"`
	ExpiresAt         string `json:"expiresAt"`
}

// verifyInvitation handles POST /api/v1/user-task-invitations/:token/verify. A body that does
// not parse is the same generic refusal as a wrong code.
func (h *guestAPI) verifyInvitation(c echo.Context) error {
	var req verifyRequest
	if c.Request().ContentLength != 0 { // a bearer invitation may post no body at all
		if err := decodeBody(c, &req); err != nil {
			return models.ErrGuestDenied
		}
	}
	v, err := h.guests.Verify(c.Request().Context(), c.Param("token"), req.Code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, verificationJSON{SessionCredential: v.Credential, TaskID: v.TaskID,
		ExpiresAt: v.ExpiresAt.UTC().Format(time.RFC3339)})
}

// guestTaskJSON is the task as its guest sees it: no workflow, history, participants,
// requester or candidates.
type guestTaskJSON struct {
	TaskID         string          `json:"taskId"`
	Title          string          `json:"title"`
	Summary        string          `json:"summary,omitempty"`
	Instructions   string          `json:"instructions"`
	DueAt          *string         `json:"dueAt"`
	Revision       int             `json:"revision"`
	Data           json.RawMessage `json:"data,omitempty"`
	Form           *formJSON       `json:"form"`
	AllowedActions []models.Action `json:"allowedActions"`
}

// getSessionTask handles GET /api/v1/user-task-sessions/current.
func (h *guestAPI) getSessionTask(c echo.Context) error {
	a := actorOf(c)
	d, err := h.tasks.Detail(c.Request().Context(), a, a.Guest.TaskID)
	if err != nil {
		return guestRefusal(err)
	}
	return c.JSON(http.StatusOK, guestTaskOf(d, a.Guest))
}

// guestTaskOf is d as the guest of grant sees it; its actions are the task's actions the grant
// allows, while the guest may complete.
func guestTaskOf(d tasks.Detail, grant *models.GuestGrant) guestTaskJSON {
	t, full := d.Task, detailOf(d)
	out := guestTaskJSON{TaskID: t.ID, Title: t.Title, Summary: t.Summary, Instructions: t.Protected.Instructions,
		DueAt: timestamp(t.DueAt), Revision: t.Revision, Form: full.Form, AllowedActions: []models.Action{}}
	if full.Form == nil {
		out.Data = full.Data
	} else {
		for i := range full.Form.Fields {
			full.Form.Fields[i].CanReveal = false // no reveal endpoint takes a guest session
		}
	}
	if !slices.Contains(d.AllowedActions, models.ActComplete) {
		return out
	}
	for _, key := range grant.AllowedActions {
		if act, ok := t.FindAction(key); ok {
			out.AllowedActions = append(out.AllowedActions, act)
		}
	}
	return out
}

// guestCompleteRequest is the body of POST /api/v1/user-task-sessions/current/complete;
// expectedRevision defaults to the task's current revision (the guest is its only assignee).
type guestCompleteRequest struct {
	ExpectedRevision *int            `json:"expectedRevision"`
	OperationID      string          `json:"operationId"`
	ActionKey        *string         `json:"actionKey"`
	Data             json.RawMessage `json:"data"`
}

// guestResultJSON answers a guest's completion: no task summary (it names the workflow).
type guestResultJSON struct {
	OperationID string `json:"operationId"`
	Status      string `json:"status"`
	Revision    int    `json:"revision"`
}

// completeSessionTask handles POST /api/v1/user-task-sessions/current/complete: 202, and the
// invitation is consumed.
func (h *guestAPI) completeSessionTask(c echo.Context) error {
	a := actorOf(c)
	ctx := c.Request().Context()
	in, err := parseGuestComplete(c)
	if err != nil {
		return err
	}
	if in.ExpectedRevision == 0 {
		d, err := h.tasks.Detail(ctx, a, a.Guest.TaskID)
		if err != nil {
			return guestRefusal(err)
		}
		in.ExpectedRevision = d.Task.Revision
	}
	res, err := h.tasks.Complete(ctx, a, a.Guest.TaskID, in)
	if err != nil {
		return guestRefusal(err)
	}
	if err := h.guests.Completed(ctx, a); err != nil {
		// The completion stands and the session is dead already (the task left Assigned);
		// only the invitation's status lags. Answer what happened, and say it in the log.
		h.log.ErrorContext(ctx, "guest invitation not marked consumed",
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "error", err.Error())
	}
	return c.JSON(http.StatusAccepted, guestResultJSON{OperationID: res.OperationID, Status: res.Status, Revision: res.Revision})
}

func parseGuestComplete(c echo.Context) (tasks.CompleteInput, error) {
	var req guestCompleteRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.CompleteInput{}, err
	}
	var problems []models.FieldError
	if strings.TrimSpace(req.OperationID) == "" {
		problems = append(problems, models.FieldError{Field: "operationId", Message: "is required"})
	}
	if req.ActionKey == nil {
		problems = append(problems, models.FieldError{Field: "actionKey", Message: "is required"})
	}
	if req.ExpectedRevision != nil && *req.ExpectedRevision < 1 {
		problems = append(problems, models.FieldError{Field: "expectedRevision", Message: "must be at least 1"})
	}
	if len(problems) > 0 {
		return tasks.CompleteInput{}, models.Invalid(models.CodeValidationFailed, problems...)
	}
	in := tasks.CompleteInput{Common: tasks.Common{OperationID: req.OperationID}, ActionKey: *req.ActionKey, Data: req.Data}
	if req.ExpectedRevision != nil {
		in.ExpectedRevision = *req.ExpectedRevision
	}
	return in, nil
}

// guestRefusal keeps a guest's refusals generic where they would tell about the task: a task
// the guest no longer holds is the dead-session answer. Form and action errors stay (the guest
// must fix its input), as do conflicts of its own request.
func guestRefusal(err error) error {
	if models.ErrorCode(err) == models.CodeNotFound {
		return models.ErrGuestDenied
	}
	return err
}

// logPath is the path the request log writes: an invitation token is replaced by ":token".
func logPath(p string) string {
	if rest, ok := strings.CutPrefix(p, guestInvitationPrefix); ok && rest != "" {
		suffix := ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			suffix = rest[i:]
		}
		return guestInvitationPrefix + ":token" + suffix
	}
	return p
}

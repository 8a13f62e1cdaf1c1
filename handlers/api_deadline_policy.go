package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/workflow"
)

// DeadlinePolicyService serves the tenants' default deadline policies to managers (issue 30
// item 4); *tasks.DeadlinePolicies implements it.
type DeadlinePolicyService interface {
	Policy(ctx context.Context, a models.Actor, definitionID string) (models.DeadlinePolicy, error)
	Put(ctx context.Context, a models.Actor, definitionID string, defs []models.DeadlineDefinition, expected int) (models.DeadlinePolicy, error)
	Delete(ctx context.Context, a models.Actor, definitionID string, expected int) error
	Audit(ctx context.Context, a models.Actor, definitionID string) ([]models.DeadlinePolicyChange, error)
	Definitions(ctx context.Context, a models.Actor) ([]tasks.PolicyDefinition, error)
}

// registerDeadlinePolicyAPI adds the deadline-policy routes to the API group.
func registerDeadlinePolicyAPI(v1 *echo.Group, svc DeadlinePolicyService, authed echo.MiddlewareFunc) {
	h := &policyAPI{policies: svc}
	v1.GET("/workflow-definitions/:id/deadline-policy", h.getPolicy, authed)
	v1.PUT("/workflow-definitions/:id/deadline-policy", h.putPolicy, authed)
	v1.DELETE("/workflow-definitions/:id/deadline-policy", h.deletePolicy, authed)
	v1.GET("/workflow-definitions/:id/deadline-policy/audit", h.policyAudit, authed)
}

type policyAPI struct{ policies DeadlinePolicyService }

// deadlinePolicyRequest is the body of PUT …/deadline-policy. The revision may come here or
// in If-Match instead.
type deadlinePolicyRequest struct {
	Deadlines        json.RawMessage `json:"deadlines"`
	ExpectedRevision *int            `json:"expectedRevision"`
}

// deadlinePolicyJSON is a policy on the wire.
type deadlinePolicyJSON struct {
	WorkflowDefinitionID string                  `json:"workflowDefinitionId"`
	Deadlines            []workflow.DeadlineSpec `json:"deadlines"`
	Revision             int                     `json:"revision"`
	ChangedBy            *models.WireParticipant `json:"changedBy"`
	UpdatedAt            string                  `json:"updatedAt"`
}

func deadlinePolicyOf(p models.DeadlinePolicy) deadlinePolicyJSON {
	return deadlinePolicyJSON{WorkflowDefinitionID: p.DefinitionID, Deadlines: workflow.DeadlineSpecs(p.Deadlines), Revision: p.Revision,
		ChangedBy: p.ChangedBy.Wire(), UpdatedAt: rfc3339(p.UpdatedAt)}
}

// policyChangeJSON is an audit entry on the wire.
type policyChangeJSON struct {
	Revision  int                     `json:"revision"`
	Action    string                  `json:"action"`
	Deadlines []workflow.DeadlineSpec `json:"deadlines,omitempty"`
	Actor     *models.WireParticipant `json:"actor"`
	At        string                  `json:"at"`
}

// definitionParam is the route's workflow definition id. echo routes on the raw path when the
// request escapes what the plain path cannot hold (a "/" as %2F) and then hands the parameter
// over escaped: unescape it once, here.
func definitionParam(c echo.Context) string {
	id := c.Param("id")
	if c.Request().URL.RawPath != "" {
		raw, err := url.PathUnescape(id)
		if err != nil {
			return "\x00" // no definition id: the service answers 404 or 422
		}
		id = raw
	}
	return id
}

// setPolicyETag states p's revision as the response's entity tag.
func setPolicyETag(c echo.Context, revision int) {
	c.Response().Header().Set("ETag", `"`+strconv.Itoa(revision)+`"`)
}

// ifMatchRevision reads If-Match as a revision ("3", W/"3" or 3); ok false without the header.
func ifMatchRevision(c echo.Context) (rev int, ok bool, err error) {
	h := strings.TrimSpace(c.Request().Header.Get("If-Match"))
	if h == "" {
		return 0, false, nil
	}
	v := strings.Trim(strings.TrimPrefix(h, "W/"), `"`)
	n, convErr := strconv.Atoi(v)
	if convErr != nil || n < 0 || len(v) > 9 {
		return 0, true, models.InvalidField("If-Match", `must be the policy's ETag, e.g. "3"`)
	}
	return n, true, nil
}

// getPolicy handles GET /api/v1/workflow-definitions/:id/deadline-policy.
func (h *policyAPI) getPolicy(c echo.Context) error {
	p, err := h.policies.Policy(c.Request().Context(), actorOf(c), definitionParam(c))
	if err != nil {
		return err
	}
	setPolicyETag(c, p.Revision)
	return c.JSON(http.StatusOK, deadlinePolicyOf(p))
}

// putPolicy handles PUT /api/v1/workflow-definitions/:id/deadline-policy.
func (h *policyAPI) putPolicy(c echo.Context) error {
	var req deadlinePolicyRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	defs, expected, err := parseDeadlinePolicy(c, req)
	if err != nil {
		return err
	}
	p, err := h.policies.Put(c.Request().Context(), actorOf(c), definitionParam(c), defs, expected)
	if err != nil {
		return err
	}
	setPolicyETag(c, p.Revision)
	return c.JSON(http.StatusOK, deadlinePolicyOf(p))
}

// parseDeadlinePolicy reads the deadlines strictly (an unknown member anywhere is refused, as
// in a projection) and the expected revision: If-Match or expectedRevision, one of them
// required, equal when both are given.
func parseDeadlinePolicy(c echo.Context, req deadlinePolicyRequest) ([]models.DeadlineDefinition, int, error) {
	var problems []models.FieldError
	specs, err := parseDeadlineSpecs(req.Deadlines)
	if err != nil {
		problems = append(problems, *err)
	}
	expected, fromHeader, herr := ifMatchRevision(c)
	switch {
	case herr != nil:
		return nil, 0, herr
	case req.ExpectedRevision != nil && *req.ExpectedRevision < 0:
		problems = append(problems, models.FieldError{Field: "expectedRevision", Message: "must not be negative (0: no policy yet)"})
	case req.ExpectedRevision != nil && fromHeader && *req.ExpectedRevision != expected:
		problems = append(problems, models.FieldError{Field: "expectedRevision", Message: "differs from If-Match"})
	case req.ExpectedRevision != nil:
		expected = *req.ExpectedRevision
	case !fromHeader:
		problems = append(problems, models.FieldError{Field: "expectedRevision", Message: "is required (or an If-Match header): 0 when there is no policy yet"})
	}
	if len(problems) > 0 {
		return nil, 0, models.Invalid(models.CodeValidationFailed, problems...)
	}
	return workflow.DeadlineDefinitions(specs), expected, nil
}

// parseDeadlineSpecs decodes the deadlines member: a list of the projection's deadlines.
func parseDeadlineSpecs(raw json.RawMessage) ([]workflow.DeadlineSpec, *models.FieldError) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, &models.FieldError{Field: "deadlines", Message: "is required"}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var specs []workflow.DeadlineSpec
	if err := dec.Decode(&specs); err != nil || dec.More() {
		return nil, &models.FieldError{Field: "deadlines", Message: "must be a list of deadlines {kind, after or at, actions} without other members"}
	}
	if specs == nil {
		specs = []workflow.DeadlineSpec{}
	}
	return specs, nil
}

// deletePolicy handles DELETE /api/v1/workflow-definitions/:id/deadline-policy; If-Match,
// when sent, must be the current revision.
func (h *policyAPI) deletePolicy(c echo.Context) error {
	expected, _, err := ifMatchRevision(c)
	if err != nil {
		return err
	}
	if err := h.policies.Delete(c.Request().Context(), actorOf(c), definitionParam(c), expected); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// policyAudit handles GET /api/v1/workflow-definitions/:id/deadline-policy/audit.
func (h *policyAPI) policyAudit(c echo.Context) error {
	entries, err := h.policies.Audit(c.Request().Context(), actorOf(c), definitionParam(c))
	if err != nil {
		return err
	}
	items := make([]policyChangeJSON, len(entries))
	for i, e := range entries {
		items[i] = policyChangeJSON{Revision: e.Revision, Action: string(e.Action), Actor: e.Actor.Wire(), At: rfc3339(e.At)}
		if e.Deadlines != nil {
			items[i].Deadlines = workflow.DeadlineSpecs(e.Deadlines)
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"items": items})
}

package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// accessJSON answers GET /api/v1/user-tasks/:id/access (SPEC 5.1).
type accessJSON struct {
	Participant *models.WireParticipant `json:"participant"`
	Premises    []reasonJSON            `json:"premises"`
	View        accessDecisionJSON      `json:"view"`
	Claim       accessDecisionJSON      `json:"claim"`
	Complete    accessDecisionJSON      `json:"complete"`
}

type accessDecisionJSON struct {
	Allowed bool         `json:"allowed"`
	Because []reasonJSON `json:"because"`
}

// reasonJSON is one step: the stable rule key, its effect, the values it names and an English
// sentence.
type reasonJSON struct {
	Rule   models.Rule   `json:"rule"`
	Effect models.Effect `json:"effect"`
	Args   []string      `json:"args"`
	Detail string        `json:"detail"`
}

func reasonsOf(rs []models.Reason) []reasonJSON {
	out := make([]reasonJSON, len(rs))
	for i, r := range rs {
		out[i] = reasonJSON{Rule: r.Rule, Effect: r.Effect, Args: nonNil(r.Args), Detail: r.Detail}
	}
	return out
}

func decisionOf(d models.AccessDecision) accessDecisionJSON {
	return accessDecisionJSON{Allowed: d.Allowed, Because: reasonsOf(d.Because)}
}

// explainAccess handles GET /api/v1/user-tasks/:id/access?participant=<type>:<id>&provider=:
// why the participant can or cannot view, claim and complete the task; managers only, audited.
func (h *taskAPI) explainAccess(c echo.Context) error {
	q := c.QueryParams()
	got, err := h.tasks.Access(c.Request().Context(), actorOf(c), c.Param("id"),
		tasks.AccessInput{Participant: q.Get("participant"), Provider: q.Get("provider")})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, accessJSON{
		Participant: got.Participant.Wire(),
		Premises:    reasonsOf(got.Premises),
		View:        decisionOf(got.View),
		Claim:       decisionOf(got.Claim),
		Complete:    decisionOf(got.Complete),
	})
}

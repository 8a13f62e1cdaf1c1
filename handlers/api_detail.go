package handlers

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// detailJSON is the summary plus what the caller may see of the rest: instructions and data
// only with disclosure.canViewProtected (absent otherwise), the form (null without one or
// without protected access), the actions, the disclosure and, once terminal, the outcome.
type detailJSON struct {
	summaryJSON
	Instructions *string         `json:"instructions,omitempty"`
	Data         json.RawMessage `json:"data,omitempty"`
	Form         *formJSON       `json:"form"`
	Actions      []models.Action `json:"actions"`
	Disclosure   disclosureJSON  `json:"disclosure"`
	Outcome      *outcomeJSON    `json:"outcome"`
	// DelegatedBy is who delegated the task to its assignee (SPEC 10.5), null otherwise.
	DelegatedBy *models.WireParticipant `json:"delegatedBy"`
	Deadlines   []deadlineJSON          `json:"deadlines"`
}

// deadlineJSON is one deadline of the task (SPEC 10.4): its kind, when it is due, whether the
// due sweep settled it (fired, or skipped because the task was taken or closed first) and,
// once fired, when.
type deadlineJSON struct {
	Kind    models.DeadlineKind  `json:"kind"`
	DueAt   string               `json:"dueAt"`
	State   models.DeadlineState `json:"state"`
	FiredAt *string              `json:"firedAt,omitempty"`
}

type formJSON struct {
	Provider *string         `json:"provider"`
	Key      *string         `json:"key"`
	Version  *string         `json:"version"`
	Schema   json.RawMessage `json:"schema"`
	Fields   []fieldJSON     `json:"fields"`
}

// fieldJSON is one form field; a masked field's value is always null (reveal it one at a time).
type fieldJSON struct {
	Key       string `json:"key"`
	Label     string `json:"label"`
	Type      string `json:"type"`
	Required  bool   `json:"required"`
	Masked    bool   `json:"masked"`
	CanReveal bool   `json:"canReveal"`
	Value     any    `json:"value"`
}

type disclosureJSON struct {
	CanViewProtected bool `json:"canViewProtected"`
	CanViewWorkflow  bool `json:"canViewWorkflow"`
	CanViewHistory   bool `json:"canViewHistory"`
	GuestVisible     bool `json:"guestVisible"`
}

type outcomeJSON struct {
	ActionKey   string                  `json:"actionKey"`
	CompletedBy *models.WireParticipant `json:"completedBy"`
	CompletedAt *string                 `json:"completedAt"`
	OnBehalfOf  *models.WireParticipant `json:"onBehalfOf,omitempty"`
}

// getTask handles GET /api/v1/user-tasks/:id.
func (h *taskAPI) getTask(c echo.Context) error {
	d, err := h.tasks.Detail(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, detailOf(d))
}

func detailOf(d tasks.Detail) detailJSON {
	t := d.Task
	out := detailJSON{
		summaryJSON: summaryOf(d.TaskView),
		Actions:     nonNil(t.Actions),
		Disclosure: disclosureJSON{
			CanViewProtected: d.Disclosure.CanViewProtected,
			CanViewWorkflow:  d.Disclosure.CanViewWorkflow,
			CanViewHistory:   d.Disclosure.CanViewHistory,
			GuestVisible:     d.Disclosure.GuestVisible,
		},
		DelegatedBy: t.DelegatedBy.Wire(),
	}
	if d.Disclosure.CanViewProtected {
		instructions := t.Protected.Instructions
		out.Instructions = &instructions
		out.Data = t.Protected.Data
		if len(out.Data) == 0 || string(out.Data) == "null" {
			out.Data = json.RawMessage(`{}`)
		}
	}
	if f := d.Form; f != nil {
		fj := &formJSON{Provider: text(f.Provider), Key: text(f.Key), Version: text(f.Version), Schema: f.Schema, Fields: []fieldJSON{}}
		for _, fv := range f.Fields {
			if fv.Masked {
				fv.Value = nil // never sent; revealed one at a time
			}
			fj.Fields = append(fj.Fields, fieldJSON{Key: fv.Key, Label: fv.Label, Type: fv.Type, Required: fv.Required,
				Masked: fv.Masked, CanReveal: fv.CanReveal, Value: fv.Value})
		}
		out.Form = fj
	}
	out.Deadlines = []deadlineJSON{}
	for _, dl := range d.Deadlines {
		j := deadlineJSON{Kind: dl.Kind, DueAt: rfc3339(dl.DueAt), State: dl.State}
		if dl.State == models.DeadlineFired {
			j.FiredAt = timestamp(dl.FiredAt)
		}
		out.Deadlines = append(out.Deadlines, j)
	}
	if t.Status.IsTerminal() {
		out.Outcome = &outcomeJSON{ActionKey: t.Outcome.ActionKey, CompletedBy: t.Outcome.CompletedBy.Wire(), CompletedAt: timestamp(t.CompletedAt),
			OnBehalfOf: t.Outcome.OnBehalfOf.Wire()}
	}
	return out
}

package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"usertasks/formsource"
	"usertasks/models"
)

// ProjectionRequest is the body of POST /api/v1/runtime/bookmarks (SPEC 5.2): one committed
// workflow bookmark to materialize as a user task. The tenant is never part of it; it comes from
// the runtime's token. The reconciliation reads the same shape from the runtime.
type ProjectionRequest struct {
	BookmarkLink
	Task TaskDefinition `json:"task"`
}

// BookmarkLink names a bookmark on the runtime protocol's wire: the workflow definition and
// instance, the activity and the bookmark, as the members of a projection request and of the
// loopback runtime's bookmark bodies.
type BookmarkLink struct {
	WorkflowDefinitionID      string `json:"workflowDefinitionId"`
	WorkflowDefinitionName    string `json:"workflowDefinitionName,omitempty"`
	WorkflowDefinitionVersion *int   `json:"workflowDefinitionVersion,omitempty"`
	WorkflowInstanceID        string `json:"workflowInstanceId"`
	WorkflowInstanceReference string `json:"workflowInstanceReference,omitempty"`
	ActivityInstanceID        string `json:"activityInstanceId"`
	BookmarkID                string `json:"bookmarkId"`
}

// Workflow is the link as the domain keeps it.
func (l BookmarkLink) Workflow() models.WorkflowLink {
	return models.WorkflowLink{
		DefinitionID: l.WorkflowDefinitionID, DefinitionName: l.WorkflowDefinitionName, DefinitionVersion: l.WorkflowDefinitionVersion,
		InstanceID: l.WorkflowInstanceID, InstanceReference: l.WorkflowInstanceReference,
		ActivityInstanceID: l.ActivityInstanceID, BookmarkID: l.BookmarkID,
	}
}

// linkOf is the wire link of a task's workflow.
func linkOf(w models.WorkflowLink) BookmarkLink {
	return BookmarkLink{
		WorkflowDefinitionID: w.DefinitionID, WorkflowDefinitionName: w.DefinitionName, WorkflowDefinitionVersion: w.DefinitionVersion,
		WorkflowInstanceID: w.InstanceID, WorkflowInstanceReference: w.InstanceReference,
		ActivityInstanceID: w.ActivityInstanceID, BookmarkID: w.BookmarkID,
	}
}

// TaskDefinition is the `task` member of a projection request.
type TaskDefinition struct {
	Title     string       `json:"title"`
	Summary   string       `json:"summary,omitempty"`
	Reference string       `json:"reference,omitempty"`
	Tags      []string     `json:"tags,omitempty"`
	TaskType  string       `json:"taskType,omitempty"`
	Requester *Participant `json:"requester,omitempty"`
	Priority  *int         `json:"priority,omitempty"`
	// DueAt is an RFC 3339 time. It stays a string on the wire type so that a bad value is a
	// validation error naming the field, not an undecodable body.
	DueAt string `json:"dueAt,omitempty"`

	Assignee                      *Participant  `json:"assignee,omitempty"`
	CandidateUsers                []Participant `json:"candidateUsers,omitempty"`
	CandidateGroups               []Participant `json:"candidateGroups,omitempty"`
	ExcludedUsers                 []Participant `json:"excludedUsers,omitempty"`
	MembershipMode                string        `json:"membershipMode,omitempty"` // live (default) or snapshot
	AllowManagerExclusionOverride bool          `json:"allowManagerExclusionOverride,omitempty"`

	Instructions string          `json:"instructions,omitempty"` // Markdown, protected
	TaskData     json.RawMessage `json:"taskData,omitempty"`     // a JSON object, protected
	Form         *FormSpec       `json:"form,omitempty"`

	Actions             []models.Action               `json:"actions,omitempty"`
	Invitations         []models.InvitationDefinition `json:"invitations,omitempty"`
	TimeoutEnabled      bool                          `json:"timeoutEnabled,omitempty"`
	CancellationEnabled bool                          `json:"cancellationEnabled,omitempty"`
	Deadlines           []DeadlineSpec                `json:"deadlines,omitempty"` // SPEC 10.4
}

// Participant is a participant on the wire: never a tenant. The type is implied by the member
// that holds it and may be left out.
type Participant struct {
	Type        models.ParticipantType `json:"type,omitempty"`
	Provider    string                 `json:"provider,omitempty"` // default "default"
	ID          string                 `json:"id"`
	DisplayName string                 `json:"displayName,omitempty"`
}

// FormSpec is a task's form: inline (`{schema}`) or a reference to a form provider
// (`{provider, key, version?}`; an empty version or `latest` pins the highest one).
type FormSpec struct {
	Schema   json.RawMessage `json:"schema,omitempty"`
	Provider string          `json:"provider,omitempty"`
	Key      string          `json:"key,omitempty"`
	Version  FormVersion     `json:"version,omitempty"`
}

// FormVersion is a form version as a runtime may send it: a JSON string ("3", "latest") or a
// JSON integer (3).
type FormVersion string

// UnmarshalJSON accepts a string, an integer or null.
func (v *FormVersion) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*v = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = FormVersion(s)
		return nil
	}
	if _, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*v = FormVersion(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: "value " + string(b), Type: reflect.TypeFor[FormVersion]()}
}

// formRequest is what a projection asks for: an inline schema, a provider reference, or neither.
type formRequest struct {
	inline json.RawMessage
	ref    *models.FormRef
}

// projection converts the wire request into the domain's projection for tenant, without the
// parts that need a directory or a form provider. Problems the domain cannot see (the RFC 3339
// due time, the ISO 8601 lifetimes, the shape of the form member) come back as field errors named
// by their wire path.
func (r ProjectionRequest) projection(tenant string) (models.Projection, formRequest, []models.FieldError) {
	var problems []models.FieldError
	fail := func(field, message string) {
		problems = append(problems, models.FieldError{Field: field, Message: message})
	}
	t := r.Task
	p := models.Projection{
		Tenant:                 tenant,
		Workflow:               r.Workflow(),
		Title:                  t.Title,
		Summary:                t.Summary,
		Reference:              t.Reference,
		TaskType:               t.TaskType,
		Tags:                   t.Tags,
		Requester:              t.Requester.ref(models.UserParticipant),
		Priority:               t.Priority,
		Assignee:               t.Assignee.ref(models.UserParticipant),
		CandidateUsers:         wireRefs(t.CandidateUsers, models.UserParticipant),
		CandidateGroups:        wireRefs(t.CandidateGroups, models.GroupParticipant),
		ExcludedUsers:          wireRefs(t.ExcludedUsers, models.UserParticipant),
		Mode:                   models.MembershipMode(t.MembershipMode),
		AllowExclusionOverride: t.AllowManagerExclusionOverride,
		Instructions:           t.Instructions,
		Data:                   t.TaskData,
		Actions:                t.Actions,
		Invitations:            t.Invitations,
		TimeoutEnabled:         t.TimeoutEnabled,
		CancellationEnabled:    t.CancellationEnabled,
		Deadlines:              deadlineDefinitions(t.Deadlines),
	}
	if t.DueAt != "" {
		due, err := time.Parse(time.RFC3339Nano, t.DueAt)
		if err != nil {
			fail("task.dueAt", "must be an RFC 3339 time")
		} else {
			due = due.UTC()
			p.DueAt = &due
		}
	}
	for i, inv := range t.Invitations {
		if inv.Lifetime == "" {
			continue
		}
		if _, err := models.ParseLifetime(inv.Lifetime); err != nil {
			fail(fmt.Sprintf("task.invitations[%d].lifetime", i), err.Error())
		}
	}
	form, formProblems := t.Form.request()
	problems = append(problems, formProblems...)
	return p, form, problems
}

// request checks the form member's shape.
func (f *FormSpec) request() (formRequest, []models.FieldError) {
	if f == nil {
		return formRequest{}, nil
	}
	var problems []models.FieldError
	fail := func(field, message string) {
		problems = append(problems, models.FieldError{Field: field, Message: message})
	}
	schema := bytes.TrimSpace(f.Schema)
	hasSchema := len(schema) > 0 && string(schema) != "null"
	hasRef := f.Provider != "" || f.Key != "" || f.Version != ""
	switch {
	case hasSchema && hasRef:
		fail("task.form", "must be either {schema} or {provider, key, version?}, not both")
	case hasSchema:
		return formRequest{inline: f.Schema}, nil
	case !hasRef:
		fail("task.form", "must be either {schema} or {provider, key, version?}")
	default:
		ref := models.FormRef{Provider: f.Provider, Key: f.Key, Version: string(f.Version)}
		if msg := models.FieldProblem(ref.Provider, models.MaxProviderLength, true, models.Identifier); msg != "" {
			fail("task.form.provider", msg)
		}
		if msg := models.FieldProblem(ref.Key, formsource.MaxKeyLength, true, models.Identifier); msg != "" {
			fail("task.form.key", msg)
		}
		if !formsource.ValidVersion(ref.Version) {
			fail("task.form.version", fmt.Sprintf("must be latest or a version of at most %d bytes without spaces or control characters", formsource.MaxVersionLength))
		}
		if len(problems) == 0 {
			return formRequest{ref: &ref}, nil
		}
	}
	return formRequest{}, problems
}

// ref converts a wire participant; the domain fills in the tenant, the default provider and the
// implied type, and validates the rest.
func (p *Participant) ref(implied models.ParticipantType) *models.ParticipantRef {
	if p == nil {
		return nil
	}
	r := models.ParticipantRef{Provider: p.Provider, Type: p.Type, ID: p.ID, DisplayName: p.DisplayName}
	if r.Type == "" {
		r.Type = implied
	}
	return &r
}

func wireRefs(ps []Participant, implied models.ParticipantType) []models.ParticipantRef {
	if ps == nil {
		return nil
	}
	out := make([]models.ParticipantRef, len(ps))
	for i := range ps {
		out[i] = *ps[i].ref(implied)
	}
	return out
}

// workflowFields are the projection's top-level members; every other field the domain names
// lives under `task`.
var workflowFields = map[string]bool{
	"tenant": true, "workflowDefinitionId": true, "workflowDefinitionName": true,
	"workflowDefinitionVersion": true, "workflowInstanceId": true, "workflowInstanceReference": true,
	"activityInstanceId": true, "bookmarkId": true,
}

// wireErrors renames the fields of a domain validation error to the request's wire paths
// ("title" → "task.title") and adds the problems found on the wire. A specific code
// (payload-too-large, reserved-action, …) wins over validation-failed.
func wireErrors(err error, extra []models.FieldError) error {
	code := models.CodeValidationFailed
	var fields []models.FieldError
	if err != nil {
		ve, ok := asValidation(err)
		if !ok {
			return err
		}
		code = ve.Code
		for _, f := range ve.Fields {
			name, _, _ := strings.Cut(f.Field, ".")
			name, _, _ = strings.Cut(name, "[")
			if !workflowFields[name] && !strings.HasPrefix(f.Field, "task.") {
				f.Field = "task." + f.Field
			}
			fields = append(fields, f)
		}
	}
	fields = append(fields, extra...)
	if len(fields) == 0 {
		return nil
	}
	return models.Invalid(code, fields...)
}

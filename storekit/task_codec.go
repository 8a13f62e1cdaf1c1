package storekit

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// Codec encodes the task aggregate into its rows and decodes it back, as every store does, and
// the rows of the other tables both stores keep alike (invitations, deliveries, guest and web
// sessions, saved views, worker runs, leases): the same NULL rules (Opt, Str), participant
// references (RefColumnsOf, RefFrom), tags, actions JSON and search text, and the protected
// values sealed by its Sealer. What a store chooses is
// Precision, what its time columns hold (SQL timestamps microseconds, BSON dates milliseconds):
// every time is stored in UTC and truncated to it, so that it reads back as it was written.
type Codec struct {
	Sealer
	Precision time.Duration
}

// Time is t as the store keeps it.
func (c Codec) Time(t time.Time) time.Time { return t.UTC().Truncate(c.Precision) }

// TimePtr is t as the store keeps it, nil for nil.
func (c Codec) TimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := c.Time(*t)
	return &u
}

// Str is the value of a nullable text column: "" for NULL.
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Opt is what a nullable text column stores for s: NULL for "", as Oracle would anyway.
func Opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// RefColumns are the four nullable columns of a participant reference: provider, type, id and
// display name.
type RefColumns struct{ Provider, Type, ID, Display *string }

// RefColumnsOf encodes r, all NULL for nil.
func RefColumnsOf(r *models.ParticipantRef) RefColumns {
	if r == nil {
		return RefColumns{}
	}
	return RefColumns{Opt(r.Provider), Opt(string(r.Type)), Opt(r.ID), Opt(r.DisplayName)}
}

// RefFrom decodes the reference columns of a row in tenant: nil without a provider or id.
func RefFrom(tenant string, provider, typ, id, display *string) *models.ParticipantRef {
	if provider == nil || id == nil {
		return nil
	}
	return &models.ParticipantRef{Tenant: tenant, Provider: *provider, Type: models.ParticipantType(Str(typ)), ID: *id, DisplayName: Str(display)}
}

// SafeTaskRow encodes t's own row without its protected columns, which stay NULL.
func (c Codec) SafeTaskRow(t *models.Task) (TaskRow, error) {
	actions, err := json.Marshal(t.Actions)
	if err != nil {
		return TaskRow{}, err
	}
	r := TaskRow{
		ID: t.ID, TenantID: t.Tenant,
		WorkflowDefinitionID: t.Workflow.DefinitionID, WorkflowDefinitionName: Opt(t.Workflow.DefinitionName),
		WorkflowDefinitionVersion: t.Workflow.DefinitionVersion, WorkflowInstanceID: t.Workflow.InstanceID,
		WorkflowInstanceReference: Opt(t.Workflow.InstanceReference), ActivityInstanceID: t.Workflow.ActivityInstanceID,
		BookmarkID: t.Workflow.BookmarkID, MaterializationKey: t.MaterializationKey,
		Title: t.Title, Summary: Opt(t.Summary), Reference: Opt(t.Reference), TaskType: Opt(t.TaskType),
		SearchText: SearchText(t), Priority: t.Priority, DueAt: c.TimePtr(t.DueAt), IsOverdue: t.IsOverdue,
		Status: string(t.Status), CreatedAt: c.Time(t.CreatedAt), UpdatedAt: c.Time(t.UpdatedAt),
		AssignedAt: c.TimePtr(t.AssignedAt), CompletedAt: c.TimePtr(t.CompletedAt), TransitionedAt: c.TimePtr(t.TransitionedAt),
		MembershipMode: string(t.Assignment.Mode), AllowExclusionOverride: t.Assignment.AllowExclusionOverride,
		CandidateUsers: t.CandidateSummary.Users, CandidateGroups: t.CandidateSummary.Groups,
		ActionsJSON: string(actions), TimeoutEnabled: t.TimeoutEnabled, CancellationEnabled: t.CancellationEnabled,
		HealthSeverity: Opt(string(t.Health.Severity)), HealthCode: Opt(t.Health.Code), HealthMessage: Opt(t.Health.Message),
		CompletionActionKey: Opt(t.Outcome.ActionKey),
		Revision:            t.Revision, LastEventSeq: t.LastEventSeq,
	}
	if len(t.Tags) > 0 {
		tags, _ := json.Marshal(t.Tags)
		r.Tags = Opt(string(tags))
	}
	req := RefColumnsOf(t.Requester)
	r.RequesterProvider, r.RequesterType, r.RequesterID, r.RequesterDisplay = req.Provider, req.Type, req.ID, req.Display
	asg := RefColumnsOf(t.Assignee)
	r.AssigneeProvider, r.AssigneeType, r.AssigneeID, r.AssigneeDisplay = asg.Provider, asg.Type, asg.ID, asg.Display
	by := RefColumnsOf(t.Outcome.CompletedBy)
	r.CompletedByProvider, r.CompletedByType, r.CompletedByID, r.CompletedByDisplay = by.Provider, by.Type, by.ID, by.Display
	del := RefColumnsOf(t.DelegatedBy)
	r.DelegatedByProvider, r.DelegatedByType, r.DelegatedByID, r.DelegatedByDisplay = del.Provider, del.Type, del.ID, del.Display
	return r, nil
}

// TaskRow encodes t's own row with every protected column sealed.
func (c Codec) TaskRow(t *models.Task) (TaskRow, error) {
	r, err := c.SafeTaskRow(t)
	if err != nil {
		return TaskRow{}, err
	}
	for _, col := range ProtectedColumns {
		if err := c.SealColumn(&r, t, col.Name); err != nil {
			return TaskRow{}, err
		}
	}
	return r, nil
}

// SealColumn seals t's protected value of column col into r (NULL when empty).
func (c Codec) SealColumn(r *TaskRow, t *models.Task, col string) error {
	var err error
	*r.SealedColumn(col), err = c.SealProtected(t, col)
	return err
}

// NextTaskRow encodes t, the task after a change of before, over cur, the row before was read
// from: the columns that never change after creation (id, tenant, creation time, the
// projection keys) keep what cur holds, and a protected value is sealed again only when its
// plaintext changed, so a change neither re-encrypts nor rewrites the others (issue 13); they
// keep cur's envelopes. resealed names the columns sealed again.
func (c Codec) NextTaskRow(cur *TaskRow, before, t *models.Task) (next TaskRow, resealed []string, err error) {
	if next, err = c.SafeTaskRow(t); err != nil {
		return TaskRow{}, nil, err
	}
	next.ID, next.TenantID, next.CreatedAt = cur.ID, cur.TenantID, cur.CreatedAt
	next.MaterializationKey, next.BookmarkID = cur.MaterializationKey, cur.BookmarkID
	for _, col := range ProtectedColumns {
		if !col.Differs(&before.Protected, &t.Protected) {
			*next.SealedColumn(col.Name) = *cur.SealedColumn(col.Name)
			continue
		}
		if err := c.SealColumn(&next, t, col.Name); err != nil {
			return TaskRow{}, nil, err
		}
		resealed = append(resealed, col.Name)
	}
	return next, resealed, nil
}

// Task decodes r; of the protected content only parts are opened (a row read without some
// sealed columns opens nothing of them). Anything that does not decode is a corrupt-store
// error naming the task. The candidates and exclusions are the store's to add.
func (c Codec) Task(r *TaskRow, parts models.ProtectedParts) (models.Task, error) {
	corrupt := func(reason string) error { return &models.CorruptError{TaskID: r.ID, Reason: reason} }
	t := models.Task{
		ID: r.ID, Tenant: r.TenantID,
		Workflow: models.WorkflowLink{
			DefinitionID: r.WorkflowDefinitionID, DefinitionName: Str(r.WorkflowDefinitionName),
			DefinitionVersion: r.WorkflowDefinitionVersion, InstanceID: r.WorkflowInstanceID,
			InstanceReference: Str(r.WorkflowInstanceReference), ActivityInstanceID: r.ActivityInstanceID,
			BookmarkID: r.BookmarkID,
		},
		MaterializationKey: r.MaterializationKey,
		Title:              r.Title, Summary: Str(r.Summary), Reference: Str(r.Reference), TaskType: Str(r.TaskType),
		Requester: RefFrom(r.TenantID, r.RequesterProvider, r.RequesterType, r.RequesterID, r.RequesterDisplay),
		Priority:  r.Priority, DueAt: c.TimePtr(r.DueAt), IsOverdue: r.IsOverdue,
		Status: models.Status(r.Status), CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt),
		AssignedAt: c.TimePtr(r.AssignedAt), CompletedAt: c.TimePtr(r.CompletedAt), TransitionedAt: c.TimePtr(r.TransitionedAt),
		Assignee:         RefFrom(r.TenantID, r.AssigneeProvider, r.AssigneeType, r.AssigneeID, r.AssigneeDisplay),
		Assignment:       models.Assignment{Mode: models.MembershipMode(r.MembershipMode), AllowExclusionOverride: r.AllowExclusionOverride},
		CandidateSummary: models.CandidateSummary{Users: r.CandidateUsers, Groups: r.CandidateGroups},
		TimeoutEnabled:   r.TimeoutEnabled, CancellationEnabled: r.CancellationEnabled,
		Health: models.Health{Severity: models.Severity(Str(r.HealthSeverity)), Code: Str(r.HealthCode), Message: Str(r.HealthMessage)},
		Outcome: models.Outcome{ActionKey: Str(r.CompletionActionKey),
			CompletedBy: RefFrom(r.TenantID, r.CompletedByProvider, r.CompletedByType, r.CompletedByID, r.CompletedByDisplay)},
		Revision: r.Revision, LastEventSeq: r.LastEventSeq,
		DelegatedBy: RefFrom(r.TenantID, r.DelegatedByProvider, r.DelegatedByType, r.DelegatedByID, r.DelegatedByDisplay),
	}
	t.Outcome.OnBehalfOf = onBehalfOf(&t)
	if !t.Status.Valid() {
		return t, corrupt(fmt.Sprintf("unknown status %q", r.Status))
	}
	if r.Revision < 1 || r.LastEventSeq < 1 {
		return t, corrupt("revision or event sequence below 1")
	}
	if r.Tags != nil {
		if err := json.Unmarshal([]byte(*r.Tags), &t.Tags); err != nil {
			return t, corrupt("tags do not decode")
		}
	}
	if err := json.Unmarshal([]byte(r.ActionsJSON), &t.Actions); err != nil {
		return t, corrupt("actions do not decode")
	}
	for _, col := range ProtectedColumns {
		if parts&col.Part == 0 {
			continue
		}
		if err := c.OpenProtected(r.ID, col.Name, *r.SealedColumn(col.Name), &t.Protected); err != nil {
			return t, err
		}
	}
	return t, nil
}

// SealedColumn is where r keeps the protected column col (one of ProtectedColumns).
func (r *TaskRow) SealedColumn(col string) **string {
	switch col {
	case ColInstructions:
		return &r.InstructionsEnc
	case ColTaskData:
		return &r.TaskDataEnc
	case ColForm:
		return &r.FormEnc
	case ColInvitationDefs:
		return &r.InvitationDefsEnc
	}
	return &r.CompletionDataEnc
}

// onBehalfOf is the outcome's delegator, kept in no column of its own: a completion (not a
// cancellation or timeout) of a task that is still delegated was the delegate's, for the
// delegator (models.Complete sets it from the same DelegatedBy).
func onBehalfOf(t *models.Task) *models.ParticipantRef {
	o := t.Outcome
	if o.CompletedBy == nil || o.ActionKey == models.ActionCancelled || o.ActionKey == models.ActionTimeout || t.Assignee == nil {
		return nil
	}
	return models.DelegatorOf(*t)
}

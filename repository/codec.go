package repository

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// The protected columns, named as in every store (storekit): the names double as the
// associated data of their ciphertext.
const (
	colInstructions   = storekit.ColInstructions
	colTaskData       = storekit.ColTaskData
	colForm           = storekit.ColForm
	colInvitationDefs = storekit.ColInvitationDefs
	colCompletionData = storekit.ColCompletionData
	colPayload        = storekit.ColPayload
)

func aad(rowID, column string) []byte { return storekit.AAD(rowID, column) }

// sealer seals and opens with the store's key ring, as every store does.
func (s *Store) sealer() storekit.Sealer { return storekit.Sealer{Keys: s.keys} }

func (s *Store) seal(rowID, column string, plain []byte) (*string, error) {
	return s.sealer().Seal(rowID, column, plain)
}

func (s *Store) open(taskID, rowID, column string, env *string) ([]byte, error) {
	return s.sealer().Open(taskID, rowID, column, env)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// opt stores "" as NULL, as Oracle would anyway.
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := utc(*t)
	return &u
}

type refColumns struct{ provider, typ, id, display *string }

func refCols(r *models.ParticipantRef) refColumns {
	if r == nil {
		return refColumns{}
	}
	return refColumns{opt(r.Provider), opt(string(r.Type)), opt(r.ID), opt(r.DisplayName)}
}

func refFrom(tenant string, provider, typ, id, display *string) *models.ParticipantRef {
	if provider == nil || id == nil {
		return nil
	}
	return &models.ParticipantRef{Tenant: tenant, Provider: *provider, Type: models.ParticipantType(str(typ)), ID: *id, DisplayName: str(display)}
}

// sealedColumn is where r keeps the protected column col.
func (r *taskRecord) sealedColumn(col string) **string {
	switch col {
	case colInstructions:
		return &r.InstructionsEnc
	case colTaskData:
		return &r.TaskDataEnc
	case colForm:
		return &r.FormEnc
	case colInvitationDefs:
		return &r.InvitationDefsEnc
	}
	return &r.CompletionDataEnc
}

// sealColumn seals one protected value of t into its column of r (NULL when empty).
func (s *Store) sealColumn(r *taskRecord, t *models.Task, col string) error {
	var err error
	*r.sealedColumn(col), err = s.sealer().SealProtected(t, col)
	return err
}

// toTaskRecord encodes the aggregate's own row, sealing the protected columns.
func (s *Store) toTaskRecord(t *models.Task) (*taskRecord, error) {
	r, err := s.safeTaskRecord(t)
	if err != nil {
		return nil, err
	}
	for _, col := range storekit.ProtectedColumns {
		if err := s.sealColumn(r, t, col.Name); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// safeTaskRecord encodes the aggregate's own row without its protected columns.
func (s *Store) safeTaskRecord(t *models.Task) (*taskRecord, error) {
	actions, err := json.Marshal(t.Actions)
	if err != nil {
		return nil, err
	}
	r := &taskRecord{
		ID: t.ID, TenantID: t.Tenant,
		WorkflowDefinitionID: t.Workflow.DefinitionID, WorkflowDefinitionName: opt(t.Workflow.DefinitionName),
		WorkflowDefinitionVersion: t.Workflow.DefinitionVersion, WorkflowInstanceID: t.Workflow.InstanceID,
		WorkflowInstanceReference: opt(t.Workflow.InstanceReference), ActivityInstanceID: t.Workflow.ActivityInstanceID,
		BookmarkID: t.Workflow.BookmarkID, MaterializationKey: t.MaterializationKey,
		Title: t.Title, Summary: opt(t.Summary), Reference: opt(t.Reference), TaskType: opt(t.TaskType),
		SearchText: storekit.SearchText(t), Priority: t.Priority, DueAt: utcPtr(t.DueAt), IsOverdue: t.IsOverdue,
		Status: string(t.Status), CreatedAt: utc(t.CreatedAt), UpdatedAt: utc(t.UpdatedAt),
		AssignedAt: utcPtr(t.AssignedAt), CompletedAt: utcPtr(t.CompletedAt), TransitionedAt: utcPtr(t.TransitionedAt),
		MembershipMode: string(t.Assignment.Mode), AllowExclusionOverride: t.Assignment.AllowExclusionOverride,
		CandidateUsers: t.CandidateSummary.Users, CandidateGroups: t.CandidateSummary.Groups,
		ActionsJSON: string(actions), TimeoutEnabled: t.TimeoutEnabled, CancellationEnabled: t.CancellationEnabled,
		HealthSeverity: opt(string(t.Health.Severity)), HealthCode: opt(t.Health.Code), HealthMessage: opt(t.Health.Message),
		CompletionActionKey: opt(t.Outcome.ActionKey),
		Revision:            t.Revision, LastEventSeq: t.LastEventSeq,
	}
	if len(t.Tags) > 0 {
		tags, _ := json.Marshal(t.Tags)
		r.Tags = opt(string(tags))
	}
	req := refCols(t.Requester)
	r.RequesterProvider, r.RequesterType, r.RequesterID, r.RequesterDisplay = req.provider, req.typ, req.id, req.display
	asg := refCols(t.Assignee)
	r.AssigneeProvider, r.AssigneeType, r.AssigneeID, r.AssigneeDisplay = asg.provider, asg.typ, asg.id, asg.display
	by := refCols(t.Outcome.CompletedBy)
	r.CompletedByProvider, r.CompletedByType, r.CompletedByID, r.CompletedByDisplay = by.provider, by.typ, by.id, by.display
	return r, nil
}

// fromTaskRecord decodes the safe columns; protected ones only when withProtected is set.
// Anything that does not decode is a corrupt-store error naming the task.
func (s *Store) fromTaskRecord(r *taskRecord, withProtected bool) (models.Task, error) {
	corrupt := func(reason string) error { return &models.CorruptError{TaskID: r.ID, Reason: reason} }
	t := models.Task{
		ID: r.ID, Tenant: r.TenantID,
		Workflow: models.WorkflowLink{
			DefinitionID: r.WorkflowDefinitionID, DefinitionName: str(r.WorkflowDefinitionName),
			DefinitionVersion: r.WorkflowDefinitionVersion, InstanceID: r.WorkflowInstanceID,
			InstanceReference: str(r.WorkflowInstanceReference), ActivityInstanceID: r.ActivityInstanceID,
			BookmarkID: r.BookmarkID,
		},
		MaterializationKey: r.MaterializationKey,
		Title:              r.Title, Summary: str(r.Summary), Reference: str(r.Reference), TaskType: str(r.TaskType),
		Requester: refFrom(r.TenantID, r.RequesterProvider, r.RequesterType, r.RequesterID, r.RequesterDisplay),
		Priority:  r.Priority, DueAt: utcPtr(r.DueAt), IsOverdue: r.IsOverdue,
		Status: models.Status(r.Status), CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt),
		AssignedAt: utcPtr(r.AssignedAt), CompletedAt: utcPtr(r.CompletedAt), TransitionedAt: utcPtr(r.TransitionedAt),
		Assignee:         refFrom(r.TenantID, r.AssigneeProvider, r.AssigneeType, r.AssigneeID, r.AssigneeDisplay),
		Assignment:       models.Assignment{Mode: models.MembershipMode(r.MembershipMode), AllowExclusionOverride: r.AllowExclusionOverride},
		CandidateSummary: models.CandidateSummary{Users: r.CandidateUsers, Groups: r.CandidateGroups},
		TimeoutEnabled:   r.TimeoutEnabled, CancellationEnabled: r.CancellationEnabled,
		Health: models.Health{Severity: models.Severity(str(r.HealthSeverity)), Code: str(r.HealthCode), Message: str(r.HealthMessage)},
		Outcome: models.Outcome{ActionKey: str(r.CompletionActionKey),
			CompletedBy: refFrom(r.TenantID, r.CompletedByProvider, r.CompletedByType, r.CompletedByID, r.CompletedByDisplay)},
		Revision: r.Revision, LastEventSeq: r.LastEventSeq,
	}
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
	if !withProtected {
		return t, nil
	}
	for _, col := range storekit.ProtectedColumns {
		if err := s.sealer().OpenProtected(r.ID, col.Name, *r.sealedColumn(col.Name), &t.Protected); err != nil {
			return t, err
		}
	}
	return t, nil
}

// sourceKey distinguishes candidate rows of the same participant from different groups; it is
// a fixed-width hash so the unique key stays within every dialect's index size limit.
func sourceKey(c models.Candidate) string {
	if c.SourceGroup == nil {
		return "-"
	}
	return shortHash(c.SourceGroup.Provider + "\x00" + string(c.SourceGroup.Type) + "\x00" + c.SourceGroup.ID)
}

func candidateRecords(t *models.Task, now time.Time) []candidateRecord {
	seen := map[string]bool{}
	var out []candidateRecord
	for _, c := range t.Assignment.Candidates {
		key := c.Participant.Key() + "\x00" + string(c.Source) + "\x00" + sourceKey(c)
		if seen[key] {
			continue
		}
		seen[key] = true
		rec := candidateRecord{
			ID: models.NewID(), TenantID: t.Tenant, TaskID: t.ID,
			Provider: c.Participant.Provider, ParticipantType: string(c.Participant.Type), ParticipantID: c.Participant.ID,
			DisplayName: opt(c.Participant.DisplayName), Source: string(c.Source), SourceKey: sourceKey(c),
			TaskStatus: string(t.Status), CreatedAt: now, UpdatedAt: now,
		}
		if c.SourceGroup != nil {
			rec.SourceGroupProvider, rec.SourceGroupID = opt(c.SourceGroup.Provider), opt(c.SourceGroup.ID)
		}
		out = append(out, rec)
	}
	return out
}

func exclusionRecords(t *models.Task, now time.Time) []exclusionRecord {
	seen := map[string]bool{}
	var out []exclusionRecord
	for _, e := range t.Assignment.Exclusions {
		if seen[e.Key()] {
			continue
		}
		seen[e.Key()] = true
		out = append(out, exclusionRecord{
			ID: models.NewID(), TenantID: t.Tenant, TaskID: t.ID, Provider: e.Provider,
			ParticipantType: string(e.Type), ParticipantID: e.ID, DisplayName: opt(e.DisplayName), CreatedAt: now,
		})
	}
	return out
}

func tagRecords(t *models.Task) []tagRecord {
	seen := map[string]bool{}
	var out []tagRecord
	for _, tag := range t.Tags {
		n := models.NormalizeTag(tag)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, tagRecord{TaskID: t.ID, Tag: n, TenantID: t.Tenant})
	}
	return out
}

func eventRecordOf(e *models.Event) eventRecord {
	a := refCols(e.Actor)
	rec := eventRecord{
		ID: e.ID, TenantID: e.Tenant, TaskID: e.TaskID, Seq: e.Seq, Revision: e.Revision,
		EventType: string(e.Type), OccurredAt: utc(e.OccurredAt), OperationID: opt(e.OperationID),
		ActorProvider: a.provider, ActorType: a.typ, ActorID: a.id, ActorDisplay: a.display, Reason: opt(e.Reason),
	}
	if len(e.Metadata) > 0 {
		rec.Metadata = opt(string(e.Metadata))
	}
	return rec
}

func eventFromRecord(r *eventRecord) models.Event {
	e := models.Event{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, Seq: r.Seq, Revision: r.Revision,
		Type: models.EventType(r.EventType), OccurredAt: utc(r.OccurredAt), OperationID: str(r.OperationID),
		Actor:  refFrom(r.TenantID, r.ActorProvider, r.ActorType, r.ActorID, r.ActorDisplay),
		Reason: str(r.Reason),
	}
	if r.Metadata != nil {
		e.Metadata = json.RawMessage(*r.Metadata)
	}
	return e
}

func (s *Store) operationRecordOf(o *models.Operation) (operationRecord, error) {
	a := refCols(o.Actor)
	rec := operationRecord{
		ID: o.ID, TenantID: o.Tenant, TaskID: o.TaskID, OperationID: o.OperationID, Kind: string(o.Kind),
		ExpectedRevision: o.ExpectedRevision, RequestHash: o.RequestHash, State: string(o.State), Attempts: o.Attempts,
		ActionKey: opt(o.ActionKey), Reason: opt(o.Reason),
		ActorProvider: a.provider, ActorType: a.typ, ActorID: a.id, ActorDisplay: a.display,
		CreatedAt: utc(o.CreatedAt), UpdatedAt: utc(o.UpdatedAt), CompletedAt: utcPtr(o.CompletedAt),
	}
	if len(o.Result) > 0 {
		rec.ResultJSON = opt(string(o.Result))
	}
	var err error
	rec.PayloadEnc, err = s.seal(o.ID, colPayload, o.Payload)
	return rec, err
}

func (s *Store) operationFromRecord(r *operationRecord) (models.Operation, error) {
	o := models.Operation{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, OperationID: r.OperationID, Kind: models.OperationKind(r.Kind),
		ExpectedRevision: r.ExpectedRevision, RequestHash: r.RequestHash, State: models.OperationState(r.State),
		Attempts: r.Attempts, ActionKey: str(r.ActionKey), Reason: str(r.Reason),
		Actor:     refFrom(r.TenantID, r.ActorProvider, r.ActorType, r.ActorID, r.ActorDisplay),
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt), CompletedAt: utcPtr(r.CompletedAt),
	}
	if r.ResultJSON != nil {
		o.Result = json.RawMessage(*r.ResultJSON)
	}
	var err error
	o.Payload, err = s.open(r.TaskID, r.ID, colPayload, r.PayloadEnc)
	return o, err
}

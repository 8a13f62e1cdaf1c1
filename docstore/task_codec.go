package docstore

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// The codec between models.Task and the aggregate document. It is the SQL store's
// (repository/codec.go) field for field: the same column names, the same NULL rules, and the
// protected values sealed as every store seals them (storekit.Sealer: the same key ring, the
// same associated data, row id "/" column), so a sealed value means the same on both stores.

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

// opt stores "" as null, as the SQL store does.
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// utc is the store's time precision: BSON dates hold milliseconds.
func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := utc(*t)
	return &u
}

type refFields struct{ provider, typ, id, display *string }

func refOf(r *models.ParticipantRef) refFields {
	if r == nil {
		return refFields{}
	}
	return refFields{opt(r.Provider), opt(string(r.Type)), opt(r.ID), opt(r.DisplayName)}
}

func refFrom(tenant string, provider, typ, id, display *string) *models.ParticipantRef {
	if provider == nil || id == nil {
		return nil
	}
	return &models.ParticipantRef{Tenant: tenant, Provider: *provider, Type: models.ParticipantType(str(typ)), ID: *id, DisplayName: str(display)}
}

// safeDoc encodes the task's own fields without the protected ones and without the embedded
// rows and pending entries.
func safeDoc(t *models.Task) (*taskDoc, error) {
	actions, err := json.Marshal(t.Actions)
	if err != nil {
		return nil, err
	}
	d := &taskDoc{
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
		TagKeys: tagDocs(t),
	}
	if len(t.Tags) > 0 {
		tags, _ := json.Marshal(t.Tags)
		d.Tags = opt(string(tags))
	}
	req := refOf(t.Requester)
	d.RequesterProvider, d.RequesterType, d.RequesterID, d.RequesterDisplay = req.provider, req.typ, req.id, req.display
	asg := refOf(t.Assignee)
	d.AssigneeProvider, d.AssigneeType, d.AssigneeID, d.AssigneeDisplay = asg.provider, asg.typ, asg.id, asg.display
	by := refOf(t.Outcome.CompletedBy)
	d.CompletedByProvider, d.CompletedByType, d.CompletedByID, d.CompletedByDisplay = by.provider, by.typ, by.id, by.display
	return d, nil
}

// sealedField is where d keeps the protected column col.
func (d *taskDoc) sealedField(col string) **string {
	switch col {
	case colInstructions:
		return &d.InstructionsEnc
	case colTaskData:
		return &d.TaskDataEnc
	case colForm:
		return &d.FormEnc
	case colInvitationDefs:
		return &d.InvitationDefsEnc
	}
	return &d.CompletionDataEnc
}

// newDoc encodes a new aggregate: every field, the protected ones sealed, with its candidates,
// exclusions and tags.
func (s *Store) newDoc(t *models.Task, now time.Time) (*taskDoc, error) {
	d, err := safeDoc(t)
	if err != nil {
		return nil, err
	}
	for _, col := range storekit.ProtectedColumns {
		if *d.sealedField(col.Name), err = s.sealer().SealProtected(t, col.Name); err != nil {
			return nil, err
		}
	}
	d.Candidates, d.Exclusions = candidateDocs(t, now), exclusionDocs(t, now)
	return d, nil
}

// fromDoc decodes the aggregate; of the protected content only parts are opened (Get opens
// all of them, a mutation what its command reads). Anything that does not decode is a
// corrupt-store error naming the task.
func (s *Store) fromDoc(d *taskDoc, parts models.ProtectedParts) (models.Task, error) {
	corrupt := func(reason string) error { return &models.CorruptError{TaskID: d.ID, Reason: reason} }
	t := models.Task{
		ID: d.ID, Tenant: d.TenantID,
		Workflow: models.WorkflowLink{
			DefinitionID: d.WorkflowDefinitionID, DefinitionName: str(d.WorkflowDefinitionName),
			DefinitionVersion: d.WorkflowDefinitionVersion, InstanceID: d.WorkflowInstanceID,
			InstanceReference: str(d.WorkflowInstanceReference), ActivityInstanceID: d.ActivityInstanceID,
			BookmarkID: d.BookmarkID,
		},
		MaterializationKey: d.MaterializationKey,
		Title:              d.Title, Summary: str(d.Summary), Reference: str(d.Reference), TaskType: str(d.TaskType),
		Requester: refFrom(d.TenantID, d.RequesterProvider, d.RequesterType, d.RequesterID, d.RequesterDisplay),
		Priority:  d.Priority, DueAt: utcPtr(d.DueAt), IsOverdue: d.IsOverdue,
		Status: models.Status(d.Status), CreatedAt: utc(d.CreatedAt), UpdatedAt: utc(d.UpdatedAt),
		AssignedAt: utcPtr(d.AssignedAt), CompletedAt: utcPtr(d.CompletedAt), TransitionedAt: utcPtr(d.TransitionedAt),
		Assignee:         refFrom(d.TenantID, d.AssigneeProvider, d.AssigneeType, d.AssigneeID, d.AssigneeDisplay),
		Assignment:       models.Assignment{Mode: models.MembershipMode(d.MembershipMode), AllowExclusionOverride: d.AllowExclusionOverride},
		CandidateSummary: models.CandidateSummary{Users: d.CandidateUsers, Groups: d.CandidateGroups},
		TimeoutEnabled:   d.TimeoutEnabled, CancellationEnabled: d.CancellationEnabled,
		Health: models.Health{Severity: models.Severity(str(d.HealthSeverity)), Code: str(d.HealthCode), Message: str(d.HealthMessage)},
		Outcome: models.Outcome{ActionKey: str(d.CompletionActionKey),
			CompletedBy: refFrom(d.TenantID, d.CompletedByProvider, d.CompletedByType, d.CompletedByID, d.CompletedByDisplay)},
		Revision: d.Revision, LastEventSeq: d.LastEventSeq,
	}
	if !t.Status.Valid() {
		return t, corrupt(fmt.Sprintf("unknown status %q", d.Status))
	}
	if d.Revision < 1 || d.LastEventSeq < 1 {
		return t, corrupt("revision or event sequence below 1")
	}
	if d.Tags != nil {
		if err := json.Unmarshal([]byte(*d.Tags), &t.Tags); err != nil {
			return t, corrupt("tags do not decode")
		}
	}
	if err := json.Unmarshal([]byte(d.ActionsJSON), &t.Actions); err != nil {
		return t, corrupt("actions do not decode")
	}
	t.Assignment.Candidates, t.Assignment.Exclusions = candidatesOf(d), exclusionsOf(d)
	err := s.openProtected(d, &t, parts)
	return t, err
}

// openProtected opens the protected parts of d into t.
func (s *Store) openProtected(d *taskDoc, t *models.Task, parts models.ProtectedParts) error {
	for _, col := range storekit.ProtectedColumns {
		if parts&col.Part == 0 {
			continue
		}
		if err := s.sealer().OpenProtected(d.ID, col.Name, *d.sealedField(col.Name), &t.Protected); err != nil {
			return err
		}
	}
	return nil
}

// sourceKey distinguishes candidate entries of the same participant from different groups (the
// SQL store's source_key).
func sourceKey(c models.Candidate) string {
	if c.SourceGroup == nil {
		return "-"
	}
	sum := sha256.Sum256([]byte(c.SourceGroup.Provider + "\x00" + string(c.SourceGroup.Type) + "\x00" + c.SourceGroup.ID))
	return hex.EncodeToString(sum[:])
}

// candidateDocs are the task's candidate entries, duplicates dropped as the SQL store's
// unique key drops them, in the order the SQL store reads them back.
func candidateDocs(t *models.Task, now time.Time) []candidateDoc {
	seen := map[string]bool{}
	var out []candidateDoc
	for _, c := range t.Assignment.Candidates {
		key := c.Participant.Key() + "\x00" + string(c.Source) + "\x00" + sourceKey(c)
		if seen[key] {
			continue
		}
		seen[key] = true
		d := candidateDoc{
			ID: models.NewID(), Provider: c.Participant.Provider, ParticipantType: string(c.Participant.Type),
			ParticipantID: c.Participant.ID, DisplayName: opt(c.Participant.DisplayName), Source: string(c.Source),
			SourceKey: sourceKey(c), CreatedAt: utc(now),
		}
		if c.SourceGroup != nil {
			d.SourceGroupProvider, d.SourceGroupID = opt(c.SourceGroup.Provider), opt(c.SourceGroup.ID)
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b candidateDoc) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Provider, b.Provider),
			cmp.Compare(a.ParticipantType, b.ParticipantType), cmp.Compare(a.ParticipantID, b.ParticipantID),
			cmp.Compare(a.SourceKey, b.SourceKey))
	})
	return out
}

func candidatesOf(d *taskDoc) []models.Candidate {
	var out []models.Candidate
	for _, c := range d.Candidates {
		cand := models.Candidate{
			Participant: models.ParticipantRef{Tenant: d.TenantID, Provider: c.Provider, Type: models.ParticipantType(c.ParticipantType),
				ID: c.ParticipantID, DisplayName: str(c.DisplayName)},
			Source: models.CandidateSource(c.Source),
		}
		if c.SourceGroupID != nil {
			cand.SourceGroup = &models.ParticipantRef{Tenant: d.TenantID, Provider: str(c.SourceGroupProvider), Type: models.GroupParticipant, ID: *c.SourceGroupID}
		}
		out = append(out, cand)
	}
	return out
}

// exclusionDocs are the task's exclusions, duplicates dropped, in the SQL store's read order.
func exclusionDocs(t *models.Task, now time.Time) []exclusionDoc {
	seen := map[string]bool{}
	var out []exclusionDoc
	for _, e := range t.Assignment.Exclusions {
		if seen[e.Key()] {
			continue
		}
		seen[e.Key()] = true
		out = append(out, exclusionDoc{ID: models.NewID(), Provider: e.Provider, ParticipantType: string(e.Type),
			ParticipantID: e.ID, DisplayName: opt(e.DisplayName), CreatedAt: utc(now)})
	}
	slices.SortFunc(out, func(a, b exclusionDoc) int {
		return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.ParticipantType, b.ParticipantType),
			cmp.Compare(a.ParticipantID, b.ParticipantID))
	})
	return out
}

func exclusionsOf(d *taskDoc) []models.ParticipantRef {
	var out []models.ParticipantRef
	for _, e := range d.Exclusions {
		out = append(out, models.ParticipantRef{Tenant: d.TenantID, Provider: e.Provider, Type: models.ParticipantType(e.ParticipantType),
			ID: e.ParticipantID, DisplayName: str(e.DisplayName)})
	}
	return out
}

// tagDocs are the task's normalized tags, each once.
func tagDocs(t *models.Task) []tagDoc {
	seen := map[string]bool{}
	var out []tagDoc
	for _, tag := range t.Tags {
		n := models.NormalizeTag(tag)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, tagDoc{Tag: n})
	}
	return out
}

func eventDocOf(e *models.Event) eventDoc {
	a := refOf(e.Actor)
	d := eventDoc{
		ID: e.ID, TenantID: e.Tenant, TaskID: e.TaskID, Seq: e.Seq, Revision: e.Revision,
		EventType: string(e.Type), OccurredAt: utc(e.OccurredAt), OperationID: opt(e.OperationID),
		ActorProvider: a.provider, ActorType: a.typ, ActorID: a.id, ActorDisplay: a.display, Reason: opt(e.Reason),
	}
	if len(e.Metadata) > 0 {
		d.Metadata = opt(string(e.Metadata))
	}
	return d
}

func eventOf(d *eventDoc) models.Event {
	e := models.Event{
		ID: d.ID, Tenant: d.TenantID, TaskID: d.TaskID, Seq: d.Seq, Revision: d.Revision,
		Type: models.EventType(d.EventType), OccurredAt: utc(d.OccurredAt), OperationID: str(d.OperationID),
		Actor:  refFrom(d.TenantID, d.ActorProvider, d.ActorType, d.ActorID, d.ActorDisplay),
		Reason: str(d.Reason),
	}
	if d.Metadata != nil {
		e.Metadata = json.RawMessage(*d.Metadata)
	}
	return e
}

func (s *Store) operationDocOf(o *models.Operation) (operationDoc, error) {
	a := refOf(o.Actor)
	d := operationDoc{
		ID: o.ID, TenantID: o.Tenant, TaskID: o.TaskID, OperationID: o.OperationID, Kind: string(o.Kind),
		ExpectedRevision: o.ExpectedRevision, RequestHash: o.RequestHash, State: string(o.State), Attempts: o.Attempts,
		ActionKey: opt(o.ActionKey), Reason: opt(o.Reason),
		ActorProvider: a.provider, ActorType: a.typ, ActorID: a.id, ActorDisplay: a.display,
		CreatedAt: utc(o.CreatedAt), UpdatedAt: utc(o.UpdatedAt), CompletedAt: utcPtr(o.CompletedAt),
	}
	if len(o.Result) > 0 {
		d.ResultJSON = opt(string(o.Result))
	}
	var err error
	d.PayloadEnc, err = s.seal(o.ID, colPayload, o.Payload)
	return d, err
}

func (s *Store) operationOf(d *operationDoc) (models.Operation, error) {
	o := models.Operation{
		ID: d.ID, Tenant: d.TenantID, TaskID: d.TaskID, OperationID: d.OperationID, Kind: models.OperationKind(d.Kind),
		ExpectedRevision: d.ExpectedRevision, RequestHash: d.RequestHash, State: models.OperationState(d.State),
		Attempts: d.Attempts, ActionKey: str(d.ActionKey), Reason: str(d.Reason),
		Actor:     refFrom(d.TenantID, d.ActorProvider, d.ActorType, d.ActorID, d.ActorDisplay),
		CreatedAt: utc(d.CreatedAt), UpdatedAt: utc(d.UpdatedAt), CompletedAt: utcPtr(d.CompletedAt),
	}
	if d.ResultJSON != nil {
		o.Result = json.RawMessage(*d.ResultJSON)
	}
	var err error
	o.Payload, err = s.open(d.TaskID, d.ID, colPayload, d.PayloadEnc)
	return o, err
}

func resumptionDocOf(r *models.Resumption) resumptionDoc {
	return resumptionDoc{
		ID: r.ID, TenantID: r.Tenant, TaskID: r.TaskID, OperationID: r.OperationID, Kind: string(r.Kind),
		State: string(models.DeliveryPending), AvailableAt: utc(r.AvailableAt),
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt),
	}
}

func resumptionOf(d *resumptionDoc) models.Resumption {
	r := models.Resumption{
		ID: d.ID, Tenant: d.TenantID, TaskID: d.TaskID, OperationID: d.OperationID, Kind: models.OperationKind(d.Kind),
		State: models.DeliveryState(d.State), Attempts: d.Attempts, AvailableAt: utc(d.AvailableAt), LastError: str(d.LastError),
		CreatedAt: utc(d.CreatedAt), UpdatedAt: utc(d.UpdatedAt), DeliveredAt: utcPtr(d.DeliveredAt),
	}
	if d.LeaseToken != nil && d.LeaseExpiresAt != nil {
		r.Lease = &models.Lease{Owner: str(d.LeaseOwner), Token: *d.LeaseToken, Generation: d.LeaseGeneration, ExpiresAt: utc(*d.LeaseExpiresAt)}
	}
	return r
}

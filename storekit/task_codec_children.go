package storekit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"usertasks/models"
)

// TagKeys are t's tags as user_task_tags keeps them: normalized (models.NormalizeTag), each
// once, in t's order.
func TagKeys(t *models.Task) []string {
	seen := map[string]bool{}
	var out []string
	for _, tag := range t.Tags {
		n := models.NormalizeTag(tag)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// SourceKey distinguishes candidate rows of the same participant from different groups; it is
// a fixed-width hash so the SQL unique key stays within every dialect's index size limit.
func SourceKey(c models.Candidate) string {
	if c.SourceGroup == nil {
		return "-"
	}
	sum := sha256.Sum256([]byte(c.SourceGroup.Provider + "\x00" + string(c.SourceGroup.Type) + "\x00" + c.SourceGroup.ID))
	return hex.EncodeToString(sum[:])
}

// CandidateRows are t's candidates, each participant, source and source group once (the SQL
// table's unique key), in t's order.
func CandidateRows(t *models.Task) []CandidateRow {
	seen := map[string]bool{}
	var out []CandidateRow
	for _, c := range t.Assignment.Candidates {
		key := c.Participant.Key() + "\x00" + string(c.Source) + "\x00" + SourceKey(c)
		if seen[key] {
			continue
		}
		seen[key] = true
		r := CandidateRow{ParticipantRow: participantRow(c.Participant), Source: string(c.Source), SourceKey: SourceKey(c)}
		if c.SourceGroup != nil {
			r.SourceGroupProvider, r.SourceGroupID = Opt(c.SourceGroup.Provider), Opt(c.SourceGroup.ID)
		}
		out = append(out, r)
	}
	return out
}

// ExclusionRows are t's exclusions, each participant once, in t's order.
func ExclusionRows(t *models.Task) []ParticipantRow {
	seen := map[string]bool{}
	var out []ParticipantRow
	for _, e := range t.Assignment.Exclusions {
		if seen[e.Key()] {
			continue
		}
		seen[e.Key()] = true
		out = append(out, participantRow(e))
	}
	return out
}

func participantRow(p models.ParticipantRef) ParticipantRow {
	return ParticipantRow{Provider: p.Provider, ParticipantType: string(p.Type), ParticipantID: p.ID, DisplayName: Opt(p.DisplayName)}
}

// Participant decodes r, a row of a task in tenant.
func (r *ParticipantRow) Participant(tenant string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: tenant, Provider: r.Provider, Type: models.ParticipantType(r.ParticipantType),
		ID: r.ParticipantID, DisplayName: Str(r.DisplayName)}
}

// Candidate decodes r, a candidate of a task in tenant.
func (r *CandidateRow) Candidate(tenant string) models.Candidate {
	c := models.Candidate{Participant: r.Participant(tenant), Source: models.CandidateSource(r.Source)}
	if r.SourceGroupID != nil {
		c.SourceGroup = &models.ParticipantRef{Tenant: tenant, Provider: Str(r.SourceGroupProvider), Type: models.GroupParticipant, ID: *r.SourceGroupID}
	}
	return c
}

// EventRow encodes e.
func (c Codec) EventRow(e *models.Event) EventRow {
	a := RefColumnsOf(e.Actor)
	r := EventRow{
		ID: e.ID, TenantID: e.Tenant, TaskID: e.TaskID, Seq: e.Seq, Revision: e.Revision,
		EventType: string(e.Type), OccurredAt: c.Time(e.OccurredAt), OperationID: Opt(e.OperationID),
		ActorProvider: a.Provider, ActorType: a.Type, ActorID: a.ID, ActorDisplay: a.Display, Reason: Opt(e.Reason),
	}
	if len(e.Metadata) > 0 {
		r.Metadata = Opt(string(e.Metadata))
	}
	return r
}

// Event decodes r.
func (c Codec) Event(r *EventRow) models.Event {
	e := models.Event{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, Seq: r.Seq, Revision: r.Revision,
		Type: models.EventType(r.EventType), OccurredAt: c.Time(r.OccurredAt), OperationID: Str(r.OperationID),
		Actor:  RefFrom(r.TenantID, r.ActorProvider, r.ActorType, r.ActorID, r.ActorDisplay),
		Reason: Str(r.Reason),
	}
	if r.Metadata != nil {
		e.Metadata = json.RawMessage(*r.Metadata)
	}
	return e
}

// OperationRow encodes o, its payload sealed.
func (c Codec) OperationRow(o *models.Operation) (OperationRow, error) {
	a := RefColumnsOf(o.Actor)
	r := OperationRow{
		ID: o.ID, TenantID: o.Tenant, TaskID: o.TaskID, OperationID: o.OperationID, Kind: string(o.Kind),
		ExpectedRevision: o.ExpectedRevision, RequestHash: o.RequestHash, State: string(o.State), Attempts: o.Attempts,
		ActionKey: Opt(o.ActionKey), Reason: Opt(o.Reason),
		ActorProvider: a.Provider, ActorType: a.Type, ActorID: a.ID, ActorDisplay: a.Display,
		CreatedAt: c.Time(o.CreatedAt), UpdatedAt: c.Time(o.UpdatedAt), CompletedAt: c.TimePtr(o.CompletedAt),
	}
	if len(o.Result) > 0 {
		r.ResultJSON = Opt(string(o.Result))
	}
	var err error
	r.PayloadEnc, err = c.Seal(o.ID, ColPayload, o.Payload)
	return r, err
}

// Operation decodes r, its payload opened.
func (c Codec) Operation(r *OperationRow) (models.Operation, error) {
	o := models.Operation{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, OperationID: r.OperationID, Kind: models.OperationKind(r.Kind),
		ExpectedRevision: r.ExpectedRevision, RequestHash: r.RequestHash, State: models.OperationState(r.State),
		Attempts: r.Attempts, ActionKey: Str(r.ActionKey), Reason: Str(r.Reason),
		Actor:     RefFrom(r.TenantID, r.ActorProvider, r.ActorType, r.ActorID, r.ActorDisplay),
		CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt), CompletedAt: c.TimePtr(r.CompletedAt),
	}
	if r.ResultJSON != nil {
		o.Result = json.RawMessage(*r.ResultJSON)
	}
	var err error
	o.Payload, err = c.Open(r.TaskID, r.ID, ColPayload, r.PayloadEnc)
	return o, err
}

// ResumptionRow encodes r, a new outbox entry: pending, not leased, never attempted.
func (c Codec) ResumptionRow(r *models.Resumption) ResumptionRow {
	return ResumptionRow{
		ID: r.ID, TenantID: r.Tenant, TaskID: r.TaskID, OperationID: r.OperationID, Kind: string(r.Kind),
		State: string(models.DeliveryPending), AvailableAt: c.Time(r.AvailableAt),
		CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt),
	}
}

// Resumption decodes r.
func (c Codec) Resumption(r *ResumptionRow) models.Resumption {
	return models.Resumption{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, OperationID: r.OperationID, Kind: models.OperationKind(r.Kind),
		State: models.DeliveryState(r.State), Attempts: r.Attempts, AvailableAt: c.Time(r.AvailableAt), LastError: Str(r.LastError),
		Lease: c.Lease(r.LeaseColumns), CreatedAt: c.Time(r.CreatedAt), UpdatedAt: c.Time(r.UpdatedAt), DeliveredAt: c.TimePtr(r.DeliveredAt),
	}
}

// Lease decodes an outbox row's lease: nil unless it has a token and an expiry.
func (c Codec) Lease(l LeaseColumns) *models.Lease {
	if l.LeaseToken == nil || l.LeaseExpiresAt == nil {
		return nil
	}
	return &models.Lease{Owner: Str(l.LeaseOwner), Token: *l.LeaseToken, Generation: l.LeaseGeneration, ExpiresAt: c.Time(*l.LeaseExpiresAt)}
}

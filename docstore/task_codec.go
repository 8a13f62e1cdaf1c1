package docstore

import (
	"cmp"
	"slices"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// The aggregate's codec is every store's (storekit.Codec), so a task encodes to the same row
// and a sealed value means the same on both stores. What is this store's own is the precision
// of its times, the milliseconds BSON dates hold, and the document around the row: the
// embedded candidates, exclusions and tags, in the order the SQL store reads its rows back.

// colPayload is the sealed payload column of operations and deliveries.
const colPayload = storekit.ColPayload

// docCodec is the codec without the key ring: enough for what seals nothing.
var docCodec = storekit.Codec{Precision: time.Millisecond}

// codec is the codec with the store's key ring.
func (s *Store) codec() storekit.Codec {
	return storekit.Codec{Sealer: s.sealer(), Precision: docCodec.Precision}
}

// sealer seals and opens with the store's key ring, as every store does.
func (s *Store) sealer() storekit.Sealer { return storekit.Sealer{Keys: s.keys} }

// utc is a time at the store's precision.
func utc(t time.Time) time.Time { return docCodec.Time(t) }

func (s *Store) seal(rowID, column string, plain []byte) (*string, error) {
	return s.sealer().Seal(rowID, column, plain)
}

// newDoc encodes a new aggregate: every field, the protected ones sealed, with its candidates,
// exclusions and tags.
func (s *Store) newDoc(t *models.Task, now time.Time) (*taskDoc, error) {
	r, err := s.codec().TaskRow(t)
	if err != nil {
		return nil, err
	}
	return &taskDoc{TaskRow: r, TagKeys: tagDocs(t), Candidates: candidateDocs(t, now), Exclusions: exclusionDocs(t, now)}, nil
}

// fromDoc decodes the aggregate; of the protected content only parts are opened (Get opens
// all of them, a mutation what its command reads). Anything that does not decode is a
// corrupt-store error naming the task.
func (s *Store) fromDoc(d *taskDoc, parts models.ProtectedParts) (models.Task, error) {
	t, err := s.codec().Task(&d.TaskRow, parts)
	t.Assignment.Candidates, t.Assignment.Exclusions = candidatesOf(d), exclusionsOf(d)
	return t, err
}

// candidateDocs are the task's candidate entries, duplicates dropped as the SQL store's
// unique key drops them, in the order the SQL store reads them back.
func candidateDocs(t *models.Task, now time.Time) []candidateDoc {
	var out []candidateDoc
	for _, c := range storekit.CandidateRows(t) {
		out = append(out, candidateDoc{ID: models.NewID(), CandidateRow: c, CreatedAt: utc(now)})
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
	for i := range d.Candidates {
		out = append(out, d.Candidates[i].Candidate(d.TenantID))
	}
	return out
}

// exclusionDocs are the task's exclusions, duplicates dropped, in the SQL store's read order.
func exclusionDocs(t *models.Task, now time.Time) []exclusionDoc {
	var out []exclusionDoc
	for _, p := range storekit.ExclusionRows(t) {
		out = append(out, exclusionDoc{ID: models.NewID(), ParticipantRow: p, CreatedAt: utc(now)})
	}
	slices.SortFunc(out, func(a, b exclusionDoc) int {
		return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.ParticipantType, b.ParticipantType),
			cmp.Compare(a.ParticipantID, b.ParticipantID))
	})
	return out
}

func exclusionsOf(d *taskDoc) []models.ParticipantRef {
	var out []models.ParticipantRef
	for i := range d.Exclusions {
		out = append(out, d.Exclusions[i].Participant(d.TenantID))
	}
	return out
}

// tagDocs are the task's normalized tags, each once.
func tagDocs(t *models.Task) []tagDoc {
	var out []tagDoc
	for _, tag := range storekit.TagKeys(t) {
		out = append(out, tagDoc{Tag: tag})
	}
	return out
}

func eventDocOf(e *models.Event) eventDoc { return eventDoc{docCodec.EventRow(e)} }

func eventOf(d *eventDoc) models.Event { return docCodec.Event(&d.EventRow) }

func (s *Store) operationDocOf(o *models.Operation) (operationDoc, error) {
	r, err := s.codec().OperationRow(o)
	return operationDoc{r}, err
}

func (s *Store) operationOf(d *operationDoc) (models.Operation, error) {
	return s.codec().Operation(&d.OperationRow)
}

func resumptionDocOf(r *models.Resumption) resumptionDoc {
	return resumptionDoc{docCodec.ResumptionRow(r)}
}

func resumptionOf(d *resumptionDoc) models.Resumption { return docCodec.Resumption(&d.ResumptionRow) }

package repository

import (
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// The task aggregate's codec is every store's (storekit.Codec); what is this store's own is
// the precision of its times, the microseconds every dialect's timestamps hold, and the rows
// only SQL keeps apart (the candidates', exclusions' and tags' task and tenant columns).

// sqlCodec is the codec without the key ring: enough for what seals nothing.
var sqlCodec = storekit.Codec{Precision: time.Microsecond}

// codec is the codec with the store's key ring.
func (s *Store) codec() storekit.Codec {
	return storekit.Codec{Sealer: s.sealer(), Precision: sqlCodec.Precision}
}

// sealer seals and opens with the store's key ring, as every store does.
func (s *Store) sealer() storekit.Sealer { return storekit.Sealer{Keys: s.keys} }

// decodeAll decodes each record, in order; the first error stops it.
func decodeAll[R, T any](recs []R, decode func(*R) (T, error)) ([]T, error) {
	out := make([]T, 0, len(recs))
	for i := range recs {
		v, err := decode(&recs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// toTaskRecord encodes the aggregate's own row, sealing the protected columns.
func (s *Store) toTaskRecord(t *models.Task) (*taskRecord, error) {
	r, err := s.codec().TaskRow(t)
	return &taskRecord{TaskRow: r}, err
}

// fromTaskRecord decodes the safe columns; protected ones only when withProtected is set (of
// those, the ones the row was read with).
func (s *Store) fromTaskRecord(r *taskRecord, withProtected bool) (models.Task, error) {
	parts := models.ProtectedParts(0)
	if withProtected {
		parts = models.ReadsAllProtected
	}
	return s.codec().Task(&r.TaskRow, parts)
}

func candidateRecords(t *models.Task, now time.Time) []candidateRecord {
	var out []candidateRecord
	for _, c := range storekit.CandidateRows(t) {
		out = append(out, candidateRecord{ID: models.NewID(), TenantID: t.Tenant, TaskID: t.ID, CandidateRow: c,
			TaskStatus: string(t.Status), CreatedAt: now, UpdatedAt: now})
	}
	return out
}

func exclusionRecords(t *models.Task, now time.Time) []exclusionRecord {
	var out []exclusionRecord
	for _, p := range storekit.ExclusionRows(t) {
		out = append(out, exclusionRecord{ID: models.NewID(), TenantID: t.Tenant, TaskID: t.ID, ParticipantRow: p, CreatedAt: now})
	}
	return out
}

func tagRecords(t *models.Task) []tagRecord {
	var out []tagRecord
	for _, tag := range storekit.TagKeys(t) {
		out = append(out, tagRecord{TaskID: t.ID, Tag: tag, TenantID: t.Tenant})
	}
	return out
}

func eventRecordOf(e *models.Event) eventRecord { return eventRecord{sqlCodec.EventRow(e)} }

func eventFromRecord(r *eventRecord) models.Event { return sqlCodec.Event(&r.EventRow) }

func (s *Store) operationRecordOf(o *models.Operation) (operationRecord, error) {
	r, err := s.codec().OperationRow(o)
	return operationRecord{r}, err
}

func (s *Store) operationFromRecord(r *operationRecord) (models.Operation, error) {
	return s.codec().Operation(&r.OperationRow)
}

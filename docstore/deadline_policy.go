package docstore

import (
	"context"
	"errors"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Default deadline policies as documents: one per (tenant, workflow definition) in
// user_task_deadline_policies, _id the key, replaced whole by each write (a delete leaves it
// without deadlines, keeping the revision); the audit entries in user_task_policy_audit, _id
// the key and the revision.
//
// FerretDB 1.x checks a write's filter before, not while, writing (docs/document-store.md,
// "What FerretDB 1.x does not make atomic"), so a revision-guarded replace alone would let two
// writers of one revision both through. The audit entry is the version claim instead: a writer
// first inserts the entry of the revision it writes, whose unique _id lets exactly one writer
// have it, then replaces the policy guarded by the revision it read. A write that stopped
// between the two is completed from its entry (which holds the whole new state) by the next
// write, the manager's read and the audit read of that policy; so every entry is a write that
// happened, and no revision is written twice.

const (
	policyCollection      = "user_task_deadline_policies"
	policyAuditCollection = "user_task_policy_audit"
)

type policyDoc struct {
	ID                         string `bson:"_id"`
	storekit.DeadlinePolicyRow `bson:",inline"`
}

type policyAuditDoc struct {
	ID                              string `bson:"_id"`
	storekit.DeadlinePolicyAuditRow `bson:",inline"`
}

// policyID is the document id of definitionID's policy in tenant: the parts joined by a
// separator no identifier may hold (models.Identifier refuses control characters).
func policyID(tenant, definitionID string) string { return tenant + "\x1f" + definitionID }

// policyAuditID is the id of the entry of revision: the claim of that revision.
func policyAuditID(tenant, definitionID string, revision int) string {
	return policyID(tenant, definitionID) + "\x1f" + strconv.Itoa(revision)
}

func (s *Store) policies() *mongo.Collection     { return s.db.Collection(policyCollection) }
func (s *Store) policyAudits() *mongo.Collection { return s.db.Collection(policyAuditCollection) }

// findPolicy reads the document of definitionID in tenant, deleted or not; nil without one.
func (s *Store) findPolicy(ctx context.Context, tenant, definitionID string) (*policyDoc, error) {
	var d policyDoc
	err := s.policies().FindOne(ctx, bson.D{{Key: "_id", Value: policyID(tenant, definitionID)}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// currentPolicy reads the policy's document and completes a write that claimed the next
// revision but did not write it (yet): the document as it stands after.
func (s *Store) currentPolicy(ctx context.Context, tenant, definitionID string) (*policyDoc, error) {
	cur, err := s.findPolicy(ctx, tenant, definitionID)
	if err != nil {
		return nil, err
	}
	// At most one claim can be ahead of the document: a claim of the revision after it is
	// taken only by a writer that read the document at the one before.
	next := 1
	if cur != nil {
		next = cur.Revision + 1
	}
	var claim policyAuditDoc
	err = s.policyAudits().FindOne(ctx, bson.D{{Key: "_id", Value: policyAuditID(tenant, definitionID, next)}}).Decode(&claim)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return cur, nil
	}
	if err != nil {
		return nil, translate(err)
	}
	d := policyDoc{ID: policyID(tenant, definitionID), DeadlinePolicyRow: storekit.PolicyRowOf(claim.DeadlinePolicyAuditRow)}
	if err := s.replacePolicy(ctx, cur, d); err != nil {
		return nil, err
	}
	return &d, nil
}

// replacePolicy writes d in place of cur (nil: inserted) guarded by cur's revision. Only the
// holder of d's revision's claim, or someone completing that claim with the same content,
// writes d, so a guard that finds the document already moved on, or an insert that finds it
// there, means d is written.
func (s *Store) replacePolicy(ctx context.Context, cur *policyDoc, d policyDoc) error {
	if cur == nil {
		_, err := s.policies().InsertOne(ctx, d)
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return translate(err)
		}
		return nil
	}
	_, err := s.policies().ReplaceOne(ctx, bson.D{{Key: "_id", Value: d.ID}, {Key: "revision", Value: cur.Revision}}, d)
	return translate(err)
}

// DeadlinePolicy returns the live policy of definitionID in tenant.
func (s *Store) DeadlinePolicy(ctx context.Context, tenant, definitionID string) (models.DeadlinePolicy, error) {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return models.DeadlinePolicy{}, models.ErrNotFound
	}
	d, err := s.currentPolicy(ctx, tenant, definitionID)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	if d == nil || !d.Live() {
		return models.DeadlinePolicy{}, models.ErrNotFound
	}
	return s.codec().DeadlinePolicy(&d.DeadlinePolicyRow)
}

// PutDeadlinePolicy writes the next revision when the stored one is expected.
func (s *Store) PutDeadlinePolicy(ctx context.Context, p models.DeadlinePolicy, expected int) (models.DeadlinePolicy, error) {
	p, err := storekit.CheckDeadlinePolicy(p)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	cur, err := s.currentPolicy(ctx, p.Tenant, p.DefinitionID)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	var stored *storekit.DeadlinePolicyRow
	if cur != nil {
		stored = &cur.DeadlinePolicyRow
	}
	next, err := storekit.NextPolicyRevision(stored, expected, models.DeadlinePolicyPut)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	row, err := s.codec().DeadlinePolicyRow(&p, next, now)
	if err != nil {
		return models.DeadlinePolicy{}, err
	}
	if err := s.writePolicy(ctx, cur, row, models.DeadlinePolicyPut); err != nil {
		return models.DeadlinePolicy{}, err
	}
	return s.codec().DeadlinePolicy(&row)
}

// DeleteDeadlinePolicy leaves the policy's document without deadlines and records the delete.
func (s *Store) DeleteDeadlinePolicy(ctx context.Context, tenant, definitionID string, expected int, actor models.ParticipantRef) error {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return models.ErrNotFound
	}
	if err := storekit.CheckPerson(tenant, actor); err != nil {
		return err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return err
	}
	cur, err := s.currentPolicy(ctx, tenant, definitionID)
	if err != nil {
		return err
	}
	if cur == nil {
		return models.ErrNotFound
	}
	next, err := storekit.NextPolicyRevision(&cur.DeadlinePolicyRow, expected, models.DeadlinePolicyDelete)
	if err != nil {
		return err
	}
	return s.writePolicy(ctx, cur, s.codec().DeletedPolicyRow(cur.DeadlinePolicyRow, actor, next, now), models.DeadlinePolicyDelete)
}

// writePolicy claims row's revision by inserting its audit entry, then writes row in place of
// cur. A revision claimed first by another writer is a revision conflict (that write is
// completed if it stopped half-way).
func (s *Store) writePolicy(ctx context.Context, cur *policyDoc, row storekit.DeadlinePolicyRow, action models.DeadlinePolicyAction) error {
	entry := storekit.PolicyAuditRow(row, action)
	_, err := s.policyAudits().InsertOne(ctx, policyAuditDoc{ID: policyAuditID(row.TenantID, row.DefinitionID, row.Revision), DeadlinePolicyAuditRow: entry})
	if mongo.IsDuplicateKeyError(err) {
		if _, err := s.currentPolicy(ctx, row.TenantID, row.DefinitionID); err != nil {
			return err
		}
		return models.Conflict(models.CodeRevisionConflict)
	}
	if err != nil {
		return translate(err)
	}
	// The claim is ours: from here the write is decided, whatever the caller does.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeGrace)
	defer cancel()
	return s.replacePolicy(wctx, cur, policyDoc{ID: policyID(row.TenantID, row.DefinitionID), DeadlinePolicyRow: row})
}

// writeGrace bounds the policy write after its claim, which must not be abandoned with the
// caller's context (the next reader would complete it, but later).
const writeGrace = 15 * time.Second

// DeadlinePolicies pages the tenant's live policies by definition id (pk_user_task_deadline_policies).
func (s *Store) DeadlinePolicies(ctx context.Context, tenant, after string, limit int) ([]models.DeadlinePolicy, error) {
	if tenant == "" || len(tenant) > models.MaxTenantLength {
		return nil, nil
	}
	limit = storekit.PolicyPageLimit(limit)
	filter := bson.D{{Key: "tenant_id", Value: tenant}}
	if after != "" {
		filter = append(filter, bson.E{Key: "workflow_definition_id", Value: bson.D{{Key: "$gt", Value: after}}})
	}
	filter = append(filter, bson.E{Key: "deadlines_json", Value: bson.D{{Key: "$ne", Value: nil}}})
	var docs []policyDoc
	opts := options.Find().SetSort(bson.D{{Key: "workflow_definition_id", Value: 1}}).SetLimit(int64(limit))
	if err := s.findAll(ctx, policyCollection, filter, opts, &docs); err != nil {
		return nil, err
	}
	out := make([]models.DeadlinePolicy, 0, len(docs))
	for i := range docs {
		p, err := s.codec().DeadlinePolicy(&docs[i].DeadlinePolicyRow)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// DeadlinePolicyAudit reads the definition's entries newest first (pk_user_task_policy_audit),
// after completing a write that stopped after its entry.
func (s *Store) DeadlinePolicyAudit(ctx context.Context, tenant, definitionID string, limit int) ([]models.DeadlinePolicyChange, error) {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return []models.DeadlinePolicyChange{}, nil
	}
	if _, err := s.currentPolicy(ctx, tenant, definitionID); err != nil {
		return nil, err
	}
	limit = storekit.PolicyAuditLimit(limit)
	var docs []policyAuditDoc
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "workflow_definition_id", Value: definitionID}}
	opts := options.Find().SetSort(bson.D{{Key: "revision", Value: -1}}).SetLimit(int64(limit))
	if err := s.findAll(ctx, policyAuditCollection, filter, opts, &docs); err != nil {
		return nil, err
	}
	out := make([]models.DeadlinePolicyChange, 0, len(docs))
	for i := range docs {
		c, err := s.codec().DeadlinePolicyChange(&docs[i].DeadlinePolicyAuditRow)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// policyFor reads a definition's live policy for the creation being decided (storekit.
// ApplyDeadlinePolicy): one read by _id. A write stopped after its claim is not completed
// here: the creation applies the revision the document holds, as if that write came later.
func (s *Store) policyFor(ctx context.Context) storekit.DeadlinePolicyLookup {
	return func(tenant, definitionID string) (*models.DeadlinePolicy, error) {
		if !storekit.CheckPolicyKey(tenant, definitionID) {
			return nil, nil
		}
		d, err := s.findPolicy(ctx, tenant, definitionID)
		if err != nil || d == nil || !d.Live() {
			return nil, err
		}
		p, err := s.codec().DeadlinePolicy(&d.DeadlinePolicyRow)
		if err != nil {
			return nil, err
		}
		return &p, nil
	}
}

package docstore

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Default deadline policies as documents: one per (tenant, workflow definition) in
// user_task_deadline_policies, _id the key, replaced whole by each write guarded by the
// revision it read (a delete leaves the document without deadlines, keeping the revision);
// the audit entries in user_task_policy_audit, _id the key and revision.
//
// Without multi-document transactions the policy and its audit entry cannot be written at
// once, so the entry travels inside the policy's own write (pending_audit) and is copied to
// the audit collection right after; the copy is idempotent (its _id), and a copy that did
// not happen is made by the next write of the policy and merged into audit reads meanwhile.
// Every committed revision therefore has its entry, and none that did not commit has one.

const (
	policyCollection      = "user_task_deadline_policies"
	policyAuditCollection = "user_task_policy_audit"
)

type policyDoc struct {
	ID                         string `bson:"_id"`
	storekit.DeadlinePolicyRow `bson:",inline"`
	Pending                    *storekit.DeadlinePolicyAuditRow `bson:"pending_audit,omitempty"`
}

type policyAuditDoc struct {
	ID                              string `bson:"_id"`
	storekit.DeadlinePolicyAuditRow `bson:",inline"`
}

// policyID is the document id of definitionID's policy in tenant: the parts joined by a
// separator no identifier may hold (models.Identifier refuses control characters).
func policyID(tenant, definitionID string) string { return tenant + "\x1f" + definitionID }

func policyAuditID(r *storekit.DeadlinePolicyAuditRow) string {
	return policyID(r.TenantID, r.DefinitionID) + "\x1f" + strconv.Itoa(r.Revision)
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

// copyAudit writes an audit entry to its collection; a copy made already is no error.
func (s *Store) copyAudit(ctx context.Context, r *storekit.DeadlinePolicyAuditRow) error {
	_, err := s.policyAudits().InsertOne(ctx, policyAuditDoc{ID: policyAuditID(r), DeadlinePolicyAuditRow: *r})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return translate(err)
	}
	return nil
}

// DeadlinePolicy returns the live policy of definitionID in tenant.
func (s *Store) DeadlinePolicy(ctx context.Context, tenant, definitionID string) (models.DeadlinePolicy, error) {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return models.DeadlinePolicy{}, models.ErrNotFound
	}
	d, err := s.findPolicy(ctx, tenant, definitionID)
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
	cur, err := s.findPolicy(ctx, p.Tenant, p.DefinitionID)
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
	cur, err := s.findPolicy(ctx, tenant, definitionID)
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

// writePolicy writes row with its audit entry pending inside it, in place of cur (nil: a
// first write, inserted), guarded by cur's revision; then copies the entry out. A previous
// write's entry still pending is copied first, so the replace never drops one.
func (s *Store) writePolicy(ctx context.Context, cur *policyDoc, row storekit.DeadlinePolicyRow, action models.DeadlinePolicyAction) error {
	entry := storekit.PolicyAuditRow(row, action)
	d := policyDoc{ID: policyID(row.TenantID, row.DefinitionID), DeadlinePolicyRow: row, Pending: &entry}
	if cur == nil {
		if _, err := s.policies().InsertOne(ctx, d); err != nil {
			if mongo.IsDuplicateKeyError(err) {
				return models.Conflict(models.CodeRevisionConflict) // a racing first put won
			}
			return translate(err)
		}
	} else {
		if cur.Pending != nil {
			if err := s.copyAudit(ctx, cur.Pending); err != nil {
				return err
			}
		}
		res, err := s.policies().ReplaceOne(ctx, bson.D{{Key: "_id", Value: d.ID}, {Key: "revision", Value: cur.Revision}}, d)
		if err != nil {
			return translate(err)
		}
		if res.MatchedCount == 0 {
			return models.Conflict(models.CodeRevisionConflict)
		}
	}
	// The write is committed: a failed copy is made later (the next write, merged into reads).
	if s.copyAudit(ctx, &entry) == nil {
		_, _ = s.policies().UpdateOne(ctx, bson.D{{Key: "_id", Value: d.ID}, {Key: "revision", Value: row.Revision}},
			bson.D{{Key: "$unset", Value: bson.D{{Key: "pending_audit", Value: ""}}}})
	}
	return nil
}

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
// with the policy's entry not copied out yet.
func (s *Store) DeadlinePolicyAudit(ctx context.Context, tenant, definitionID string, limit int) ([]models.DeadlinePolicyChange, error) {
	if !storekit.CheckPolicyKey(tenant, definitionID) {
		return []models.DeadlinePolicyChange{}, nil
	}
	limit = storekit.PolicyAuditLimit(limit)
	var docs []policyAuditDoc
	filter := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "workflow_definition_id", Value: definitionID}}
	opts := options.Find().SetSort(bson.D{{Key: "revision", Value: -1}}).SetLimit(int64(limit))
	if err := s.findAll(ctx, policyAuditCollection, filter, opts, &docs); err != nil {
		return nil, err
	}
	rows := make([]storekit.DeadlinePolicyAuditRow, 0, len(docs)+1)
	for i := range docs {
		rows = append(rows, docs[i].DeadlinePolicyAuditRow)
	}
	cur, err := s.findPolicy(ctx, tenant, definitionID)
	if err != nil {
		return nil, err
	}
	if cur != nil && cur.Pending != nil && !slices.ContainsFunc(rows, func(r storekit.DeadlinePolicyAuditRow) bool { return r.Revision == cur.Pending.Revision }) {
		rows = append(rows, *cur.Pending)
		slices.SortFunc(rows, func(a, b storekit.DeadlinePolicyAuditRow) int { return b.Revision - a.Revision })
		rows = rows[:min(len(rows), limit)]
	}
	out := make([]models.DeadlinePolicyChange, 0, len(rows))
	for i := range rows {
		c, err := s.codec().DeadlinePolicyChange(&rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// policyFor reads a definition's live policy for the creation being decided (storekit.
// ApplyDeadlinePolicy): one read by _id.
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

package docstore

import (
	"context"
	"errors"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Out-of-office absences (SPEC 10.5) as documents of user_task_absences, one per user: the _id
// is the user's key, so a put is one whole-document replace (upserted), the next put replaces
// it, and no update ever merges two writers' fields. The logical primary key is also the unique
// index pk_user_task_absences.

const absenceCollection = "user_task_absences"

type absenceDoc struct {
	ID                  string `bson:"_id"`
	storekit.AbsenceRow `bson:",inline"`
}

// absenceID is the document id of user's absence in tenant: the key's parts joined by a
// separator no identifier may hold (models.Identifier refuses control characters).
func absenceID(tenant string, user models.ParticipantRef) string {
	return strings.Join([]string{tenant, user.Provider, string(models.UserParticipant), user.ID}, "\x1f")
}

func (s *Store) absences() *mongo.Collection { return s.db.Collection(absenceCollection) }

// findAbsence reads user's absence in tenant, nil when there is none.
func (s *Store) findAbsence(ctx context.Context, tenant string, user models.ParticipantRef) (*absenceDoc, error) {
	var d absenceDoc
	err := s.absences().FindOne(ctx, bson.D{{Key: "_id", Value: absenceID(tenant, user)}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// PutAbsence stores a as the user's one absence, replacing any other, at the database time.
func (s *Store) PutAbsence(ctx context.Context, a models.Absence) (models.Absence, error) {
	if err := storekit.CheckAbsence(a); err != nil {
		return models.Absence{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.Absence{}, err
	}
	cur, err := s.findAbsence(ctx, a.Tenant, a.User)
	if err != nil {
		return models.Absence{}, err
	}
	a.CreatedAt, a.UpdatedAt = now, now
	if cur != nil {
		a.CreatedAt = cur.CreatedAt
	}
	d := absenceDoc{ID: absenceID(a.Tenant, a.User), AbsenceRow: s.codec().AbsenceRow(&a)}
	_, err = s.absences().ReplaceOne(ctx, bson.D{{Key: "_id", Value: d.ID}}, d, options.Replace().SetUpsert(true))
	if mongo.IsDuplicateKeyError(err) {
		// Two first puts raced to insert: the document exists now, so the replace takes it.
		_, err = s.absences().ReplaceOne(ctx, bson.D{{Key: "_id", Value: d.ID}}, d, options.Replace().SetUpsert(true))
	}
	if err != nil {
		return models.Absence{}, translate(err)
	}
	return s.codec().Absence(&d.AbsenceRow), nil
}

// Absence returns user's absence in tenant; models.ErrNotFound without one.
func (s *Store) Absence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error) {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.Absence{}, models.ErrNotFound
	}
	d, err := s.findAbsence(ctx, tenant, user)
	if err != nil {
		return models.Absence{}, err
	}
	if d == nil {
		return models.Absence{}, models.ErrNotFound
	}
	return s.codec().Absence(&d.AbsenceRow), nil
}

// DeleteAbsence removes user's absence in tenant; models.ErrNotFound without one.
func (s *Store) DeleteAbsence(ctx context.Context, tenant string, user models.ParticipantRef) error {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.ErrNotFound
	}
	res, err := s.absences().DeleteOne(ctx, bson.D{{Key: "_id", Value: absenceID(tenant, user)}})
	if err != nil {
		return translate(err)
	}
	if res.DeletedCount == 0 {
		return models.ErrNotFound
	}
	return nil
}

// ActiveAbsence returns user's absence in tenant when starts_at ≤ the database clock < ends_at;
// models.ErrNotFound otherwise.
func (s *Store) ActiveAbsence(ctx context.Context, tenant string, user models.ParticipantRef) (models.Absence, error) {
	a, err := s.Absence(ctx, tenant, user)
	if err != nil {
		return models.Absence{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.Absence{}, err
	}
	if !a.ActiveAt(now) {
		return models.Absence{}, models.ErrNotFound
	}
	return a, nil
}

// absencesFor reads absences for the substitution of a change in the claimed write that is
// deciding it (storekit.ApplySubstitution).
func (s *Store) absencesFor(ctx context.Context) storekit.AbsenceLookup {
	return func(tenant string, user models.ParticipantRef) (*models.Absence, error) {
		d, err := s.findAbsence(ctx, tenant, user)
		if err != nil || d == nil {
			return nil, err
		}
		a := s.codec().Absence(&d.AbsenceRow)
		return &a, nil
	}
}

// SubstitutedBy returns the users whose absence names substitute and is active on the database
// clock, through the index ix_absences_substitute (the substitute's documents not yet ended).
func (s *Store) SubstitutedBy(ctx context.Context, tenant string, substitute models.ParticipantRef) ([]models.ParticipantRef, error) {
	if storekit.CheckPerson(tenant, substitute) != nil {
		return nil, nil
	}
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	filter := bson.D{
		{Key: "tenant_id", Value: tenant}, {Key: "substitute_provider", Value: substitute.Provider},
		{Key: "substitute_type", Value: string(models.UserParticipant)}, {Key: "substitute_id", Value: substitute.ID},
		{Key: "ends_at", Value: bson.D{{Key: "$gt", Value: s.codec().Time(now)}}},
	}
	cur, err := s.absences().Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "user_provider", Value: 1}, {Key: "user_id", Value: 1}}))
	if err != nil {
		return nil, translate(err)
	}
	var docs []absenceDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate(err)
	}
	rows := make([]storekit.AbsenceRow, len(docs))
	for i := range docs {
		rows[i] = docs[i].AbsenceRow
	}
	return storekit.StandingIn(s.codec(), rows, now), nil
}

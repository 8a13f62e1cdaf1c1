package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// The people the product knows (SPEC 10.3) as documents of user_task_people, unique on
// (tenant_id, provider, user_id) (the logical primary key, index pk_user_task_people) with a
// random _id. Requests record a person's identity and a settings page their preferences, from
// any node at once: FerretDB's update writes back the whole document it read, so every update
// is a claimed write (doc_claim.go) and neither undoes the other's fields. The first record is
// an insert; a concurrent first insert loses on the key and updates instead.

const peopleCollection = "user_task_people"

// personDoc is a person as stored, with its _id and the version of its claimed writes.
type personDoc struct {
	ID                 string `bson:"_id"`
	storekit.PersonRow `bson:",inline"`
	Version            int64 `bson:"version"`
}

func personRef(d *personDoc) docRef {
	return docRef{coll: peopleCollection, id: d.ID, tenant: d.TenantID, key: "person:" + d.ID}
}

func personFilter(tenant string, user models.ParticipantRef) bson.D {
	return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "provider", Value: user.Provider}, {Key: "user_id", Value: user.ID}}
}

// findPerson reads user's record in tenant, nil when there is none.
func (s *Store) findPerson(ctx context.Context, tenant string, user models.ParticipantRef) (*personDoc, error) {
	var d personDoc
	err := s.db.Collection(peopleCollection).FindOne(ctx, personFilter(tenant, user)).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// upsertPerson writes user's record in tenant: a new one (first) when there is none, else the
// update set builds from the stored one (nil: nothing to write). It reports whether it wrote.
func (s *Store) upsertPerson(ctx context.Context, tenant string, user models.ParticipantRef,
	first func(now time.Time) personDoc, set func(d *personDoc, now time.Time) bson.D) (bool, error) {
	wrote := false
	err := retryClaimed(ctx, func() error {
		now, err := s.Now(ctx)
		if err != nil {
			return err
		}
		d, err := s.findPerson(ctx, tenant, user)
		if err != nil {
			return err
		}
		if d == nil {
			doc := first(now)
			_, err := s.db.Collection(peopleCollection).InsertOne(ctx, doc)
			if mongo.IsDuplicateKeyError(err) {
				return errClaimLost // a concurrent first record: update it on the next pass
			}
			wrote = err == nil
			return translate(err)
		}
		update := set(d, now)
		if update == nil {
			return nil
		}
		if err := s.claimedSet(ctx, personRef(d), d.Version, update, now); err != nil {
			return err
		}
		wrote = true
		return nil
	})
	return wrote, err
}

// RecordPerson writes p's identity and seen time unless the stored record was seen less than
// every ago; it never touches the preferences. It reports whether it wrote.
func (s *Store) RecordPerson(ctx context.Context, p models.Person, every time.Duration) (bool, error) {
	if err := storekit.CheckPerson(p.Tenant, p.User); err != nil {
		return false, err
	}
	return s.upsertPerson(ctx, p.Tenant, p.User, func(now time.Time) personDoc {
		return personDoc{ID: models.NewID(), PersonRow: docCodec.PersonRow(&p, now)}
	}, func(d *personDoc, now time.Time) bson.D {
		if now.Sub(d.SeenAt) < every {
			return nil
		}
		r := docCodec.PersonRow(&p, now)
		return bson.D{{Key: "display_name", Value: r.DisplayName}, {Key: "email", Value: r.Email},
			{Key: "language", Value: r.Language}, {Key: "time_zone", Value: r.TimeZone}, {Key: "manager", Value: r.Manager},
			{Key: "seen_at", Value: r.SeenAt}, {Key: "updated_at", Value: r.UpdatedAt}}
	})
}

// Person is the stored record of user in tenant, preferences completed with the defaults, or
// an error wrapping models.ErrNotFound.
func (s *Store) Person(ctx context.Context, tenant string, user models.ParticipantRef) (models.Person, error) {
	if storekit.CheckPerson(tenant, user) != nil {
		return models.Person{}, fmt.Errorf("person: %w", models.ErrNotFound)
	}
	d, err := s.findPerson(ctx, tenant, user)
	if err != nil {
		return models.Person{}, err
	}
	if d == nil {
		return models.Person{}, fmt.Errorf("person: %w", models.ErrNotFound)
	}
	return docCodec.Person(&d.PersonRow), nil
}

// SetNotificationPreferences stores user's preferences (creating a bare record, never seen,
// when there is none) and returns the record.
func (s *Store) SetNotificationPreferences(ctx context.Context, tenant string, user models.ParticipantRef, prefs models.NotificationPreferences) (models.Person, error) {
	if err := storekit.CheckPerson(tenant, user); err != nil {
		return models.Person{}, err
	}
	emailPrefs, digest := storekit.PreferenceColumns(prefs)
	_, err := s.upsertPerson(ctx, tenant, user, func(now time.Time) personDoc {
		bare := models.Person{Tenant: tenant, User: models.ParticipantRef{Provider: user.Provider, Type: models.UserParticipant, ID: user.ID}}
		r := docCodec.PersonRow(&bare, now)
		r.SeenAt = neverSeen
		r.EmailPrefs, r.Digest = emailPrefs, digest
		return personDoc{ID: models.NewID(), PersonRow: r}
	}, func(_ *personDoc, now time.Time) bson.D {
		return bson.D{{Key: "email_prefs", Value: emailPrefs}, {Key: "digest", Value: digest}, {Key: "updated_at", Value: now}}
	})
	if err != nil {
		return models.Person{}, err
	}
	return s.Person(ctx, tenant, user)
}

// neverSeen is the seen time of a record a settings page created before any request recorded
// its person, so that the first request records them.
var neverSeen = time.Unix(0, 0).UTC()

// Managers lists up to limit recorded managers of tenant, by user id (index ix_people_managers).
func (s *Store) Managers(ctx context.Context, tenant string, limit int) ([]models.Person, error) {
	if limit <= 0 {
		return nil, nil
	}
	var docs []personDoc
	opts := options.Find().SetSort(bson.D{{Key: "user_id", Value: 1}, {Key: "provider", Value: 1}}).SetLimit(int64(limit))
	if err := s.findAll(ctx, peopleCollection, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "manager", Value: true}}, opts, &docs); err != nil {
		return nil, err
	}
	out := make([]models.Person, 0, len(docs))
	for i := range docs {
		out = append(out, docCodec.Person(&docs[i].PersonRow))
	}
	return out, nil
}

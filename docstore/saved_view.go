package docstore

import (
	"context"
	"math/rand/v2"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// Saved inbox views (issue 10) as documents of user_task_saved_views. Who may see, rename or
// delete a view is the models policy, as on SQL. Two refusals are the collection's:
//   - a name new to its owner case-insensitively: the unique index ux_saved_views_name over
//     the lower-cased name_key, as on SQL;
//   - at most models.MaxSavedViews views per owner: SQL counts inside its transaction; here
//     each view holds one of the owner's MaxSavedViews numbered slots, unique per owner
//     (ux_saved_views_slot, the document store's own index). A creation picks a free slot and
//     inserts; two concurrent creations that picked the same slot get E11000 but one, and the
//     loser picks again. So the cap holds exactly, without transactions: a 51st view has no slot.
// A rename writes name and name_key of one view; two concurrent renames of the same view both
// land and the later write wins, which is what SQL's serialized updates give too.

const savedViewCollection = "user_task_saved_views"

type savedViewDoc struct {
	storekit.SavedViewRow `bson:",inline"`
	// Slot is the view's place among its owner's MaxSavedViews (ux_saved_views_slot).
	Slot int `bson:"slot"`
}

func (s *Store) savedViews() *mongo.Collection { return s.db.Collection(savedViewCollection) }

// CreateSavedView stores v under a new id, at the database's time, and returns it. The name must
// be new to the owner (case-insensitively) and the owner may hold at most models.MaxSavedViews
// views; both refusals are validation errors.
func (s *Store) CreateSavedView(ctx context.Context, v models.SavedView) (models.SavedView, error) {
	if err := storekit.CheckSavedView(v); err != nil {
		return models.SavedView{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.SavedView{}, err
	}
	v.ID, v.CreatedAt, v.UpdatedAt = models.NewID(), now, now
	d := savedViewDoc{SavedViewRow: s.codec().SavedViewRow(&v)}
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		var owned []savedViewDoc
		err := s.findAll(ctx, savedViewCollection, ownedViews(v.Tenant, v.Owner),
			options.Find().SetProjection(bson.D{{Key: "name_key", Value: 1}, {Key: "slot", Value: 1}}), &owned)
		if err != nil {
			return models.SavedView{}, err
		}
		used := map[int]bool{}
		for _, o := range owned {
			if o.NameKey == d.NameKey {
				return models.SavedView{}, storekit.ErrViewNameTaken
			}
			used[o.Slot] = true
		}
		var free []int
		for slot := range models.MaxSavedViews {
			if !used[slot] {
				free = append(free, slot)
			}
		}
		if len(free) == 0 {
			return models.SavedView{}, storekit.ErrTooManyViews
		}
		// A random free slot, so concurrent creations of one owner seldom pick the same.
		d.Slot = free[rand.IntN(len(free))]
		_, err = s.savedViews().InsertOne(ctx, d)
		if err == nil {
			return s.codec().SavedView(&d.SavedViewRow), nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return models.SavedView{}, translate(err)
		}
		// The name or the slot was taken meanwhile: the next read tells which.
		if err := backoff(ctx, attempt); err != nil {
			return models.SavedView{}, err
		}
	}
	return models.SavedView{}, models.ErrBusy
}

// SavedViews lists the views a may open, by name: a's own and, for a manager, those shared with
// the tenant's managers.
func (s *Store) SavedViews(ctx context.Context, a models.Actor) ([]models.SavedView, error) {
	me := a.Subject
	if a.Guest != nil || a.Tenant == "" || me.ID == "" {
		return nil, nil
	}
	mine := bson.D{{Key: "owner_provider", Value: me.Provider}, {Key: "owner_type", Value: string(me.Type)}, {Key: "owner_id", Value: me.ID}}
	filter := bson.D{{Key: "tenant_id", Value: a.Tenant}}
	if models.CanShareViews(a) {
		filter = append(filter, bson.E{Key: "$or", Value: bson.A{mine, bson.D{{Key: "is_shared", Value: true}}}})
	} else {
		filter = append(filter, mine...)
	}
	var docs []savedViewDoc
	opts := options.Find().SetSort(bson.D{{Key: "name_key", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(models.MaxSavedViews * 20)
	if err := s.findAll(ctx, savedViewCollection, filter, opts, &docs); err != nil {
		return nil, err
	}
	out := make([]models.SavedView, 0, len(docs))
	for i := range docs {
		out = append(out, s.codec().SavedView(&docs[i].SavedViewRow))
	}
	return out, nil
}

// SavedView returns the view a may open; models.ErrNotFound when it is missing or a may not see it.
func (s *Store) SavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error) {
	return s.loadSavedView(ctx, a, id, models.SeesSavedView)
}

// RenameSavedView renames a's own view; models.ErrNotFound for anyone else's. A name another of
// the owner's views has is a validation error.
func (s *Store) RenameSavedView(ctx context.Context, a models.Actor, id, name string) (models.SavedView, error) {
	v, err := s.loadSavedView(ctx, a, id, models.MayRenameSavedView)
	if err != nil {
		return models.SavedView{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.SavedView{}, err
	}
	v.Name, v.UpdatedAt = name, now
	if err := storekit.CheckSavedView(v); err != nil {
		return models.SavedView{}, err
	}
	// FerretDB 1.24 reports an update that breaks a unique index as an internal error rather
	// than E11000, so the name is looked up first; the index still refuses a concurrent twin.
	key := models.SavedViewNameKey(name)
	twin := append(ownedViews(a.Tenant, v.Owner), bson.E{Key: "name_key", Value: key}, bson.E{Key: "_id", Value: bson.D{{Key: "$ne", Value: id}}})
	switch n, err := s.savedViews().CountDocuments(ctx, twin); {
	case err != nil:
		return models.SavedView{}, translate(err)
	case n > 0:
		return models.SavedView{}, storekit.ErrViewNameTaken
	}
	res, err := s.savedViews().UpdateOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: a.Tenant}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "name", Value: name}, {Key: "name_key", Value: key}, {Key: "updated_at", Value: now}}}})
	switch {
	case mongo.IsDuplicateKeyError(err) || (err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")):
		return models.SavedView{}, storekit.ErrViewNameTaken
	case err != nil:
		return models.SavedView{}, translate(err)
	case res.MatchedCount == 0:
		return models.SavedView{}, models.ErrNotFound // deleted meanwhile
	}
	return v, nil
}

// DeleteSavedView deletes a view a may delete (models.MayDeleteSavedView) and returns it;
// models.ErrNotFound otherwise. Its slot is free again.
func (s *Store) DeleteSavedView(ctx context.Context, a models.Actor, id string) (models.SavedView, error) {
	v, err := s.loadSavedView(ctx, a, id, models.MayDeleteSavedView)
	if err != nil {
		return models.SavedView{}, err
	}
	res, err := s.savedViews().DeleteOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: a.Tenant}})
	if err != nil {
		return models.SavedView{}, translate(err)
	}
	if res.DeletedCount == 0 {
		return models.SavedView{}, models.ErrNotFound
	}
	return v, nil
}

// loadSavedView reads a view of a's tenant and applies a policy; a view the policy refuses is
// indistinguishable from a missing one.
func (s *Store) loadSavedView(ctx context.Context, a models.Actor, id string, may func(models.Actor, models.SavedView) bool) (models.SavedView, error) {
	if a.Tenant == "" || id == "" || len(id) > 36 {
		return models.SavedView{}, models.ErrNotFound
	}
	var d savedViewDoc
	if err := s.savedViews().FindOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: a.Tenant}}).Decode(&d); err != nil {
		return models.SavedView{}, translate(err)
	}
	v := s.codec().SavedView(&d.SavedViewRow)
	if !may(a, v) {
		return models.SavedView{}, models.ErrNotFound
	}
	return v, nil
}

func ownedViews(tenant string, owner models.ParticipantRef) bson.D {
	return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "owner_provider", Value: owner.Provider},
		{Key: "owner_type", Value: string(owner.Type)}, {Key: "owner_id", Value: owner.ID}}
}

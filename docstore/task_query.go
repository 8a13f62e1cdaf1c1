package docstore

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// summaryFields is the projection of a list item: the safe fields only
// (storekit.SafeTaskFields), never a sealed *_enc field, the embedded rows, the pending entries
// or search_text (it only serves the search).
var summaryFields = func() bson.D {
	var p bson.D
	for _, f := range storekit.SafeTaskFields {
		p = append(p, bson.E{Key: f, Value: 1})
	}
	return p
}()

// taskQuery is a validated list filter.
type taskQuery struct {
	f models.TaskFilter
	// sort orders by its field, then _id, in the same direction, as the SQL store's index of
	// the same name, (tenant_id, field, _id) in the layout, serves it; a nullable field puts
	// nulls last in both directions, as SQL does (MongoDB sorts null first ascending), so its
	// pages are read in two walks (page).
	sort    storekit.Sort
	limit   int
	after   *storekit.SortValue // the cursor position, nil on the first page
	afterID string
	// check, when set, is the part of the scope the filter cannot say exactly (the available
	// scope's candidate entries): an aggregate the filter finds is listed only if it passes.
	check func(d *taskDoc) bool
	// project, when set, is the projection read instead of a list item's (the short search
	// reads _id, sort field and search text).
	project bson.D
}

// Query returns one page of task summaries f.Actor may see in f.Scope, with the SQL store's
// semantics (repository.Store.Query): the same scopes and authorization, filters, orders
// (nulls last), keyset cursors bound to the filters, and totals capped at Config.TotalCap.
func (s *Store) Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error) {
	q, err := newTaskQuery(f)
	if err != nil {
		return models.TaskPage{}, err
	}
	now, err := s.Now(ctx)
	if err != nil {
		return models.TaskPage{}, err
	}
	if storekit.ShortNeedle(storekit.SearchNeedle(q.f.Search)) {
		return s.shortSearch(ctx, q, now) // task_query_short.go
	}
	page := models.TaskPage{Now: now}
	where, err := s.conditions(ctx, q, now)
	if err != nil {
		return models.TaskPage{}, err
	}
	if q.f.IncludeTotal {
		total, capped, err := s.cappedTotal(ctx, q, where)
		if err != nil {
			return models.TaskPage{}, err
		}
		page.Total, page.TotalCapped = &total, capped
	}
	docs, err := s.page(ctx, q, where)
	if err != nil {
		return models.TaskPage{}, err
	}
	if len(docs) > q.limit {
		docs = docs[:q.limit]
		last := &docs[len(docs)-1]
		if page.NextCursor, err = storekit.EncodeCursor(q.f.Sort, q.f.Descending, storekit.FilterDigest(q.f), q.sort.Value(&last.TaskRow), last.ID); err != nil {
			return models.TaskPage{}, err
		}
	}
	if page.Items, err = s.listItems(docs); err != nil {
		return models.TaskPage{}, err
	}
	return page, nil
}

// listItems are the list items of docs, read with summaryFields.
func (s *Store) listItems(docs []taskDoc) ([]models.Task, error) {
	items := make([]models.Task, 0, len(docs))
	for i := range docs {
		t, err := s.fromDoc(&docs[i], 0)
		if err != nil {
			return nil, err
		}
		items = append(items, t)
	}
	return items, nil
}

// cappedTotal counts at most TotalCap+1 matches: past the cap the total is the cap, capped.
func (s *Store) cappedTotal(ctx context.Context, q *taskQuery, where []bson.D) (int, bool, error) {
	limit := s.cfg.TotalCap
	if limit <= 0 {
		limit = models.TotalCap
	}
	var n int64
	if q.check == nil {
		var err error
		if n, err = s.tasks().CountDocuments(ctx, allOf(where), options.Count().SetLimit(int64(limit)+1)); err != nil {
			return 0, false, translate(err)
		}
	} else {
		cur, err := s.tasks().Find(ctx, allOf(where), options.Find().SetProjection(append(bson.D{{Key: "membership_mode", Value: 1}}, checkFields...)))
		if err != nil {
			return 0, false, translate(err)
		}
		defer func() { _ = cur.Close(ctx) }()
		for n <= int64(limit) && cur.Next(ctx) {
			var d taskDoc
			if err := cur.Decode(&d); err != nil {
				return 0, false, translate(err)
			}
			if q.check(&d) {
				n++
			}
		}
		if err := cur.Err(); err != nil {
			return 0, false, translate(err)
		}
	}
	if n > int64(limit) {
		return limit, true, nil
	}
	return int(n), false, nil
}

// page reads limit+1 summaries after the cursor in the query's order. A nullable sort is read
// in up to two walks of its index: first the aggregates with a value, in (field, _id) order,
// then, when the page is not full, those without one in _id order (nulls last, as on SQL). A
// cursor among the nulls skips the first walk.
func (s *Store) page(ctx context.Context, q *taskQuery, where []bson.D) ([]taskDoc, error) {
	field := q.sort.Column
	var out []taskDoc
	after, afterID := q.after, q.afterID
	if after == nil || !after.Null {
		dated := slices.Clip(where)
		if q.sort.Nullable {
			dated = append(dated, fieldOp(field, "$ne", nil))
		}
		if err := s.walk(ctx, q, dated, false, after, afterID, &out); err != nil {
			return nil, err
		}
		if len(out) > q.limit || !q.sort.Nullable {
			return out, nil
		}
		after, afterID = nil, ""
	}
	return out, s.walk(ctx, q, append(slices.Clip(where), fieldEq(field, nil)), true, after, afterID, &out)
}

// walk appends to out the aggregates of base after (after, afterID) in the query's order that
// pass the query's check, until out holds limit+1 or base has no more. nulls says base holds
// only aggregates whose sort field is null, which then follow each other in _id order.
func (s *Store) walk(ctx context.Context, q *taskQuery, base []bson.D, nulls bool, after *storekit.SortValue, afterID string, out *[]taskDoc) error {
	dir, op := 1, "$gt"
	if q.f.Descending {
		dir, op = -1, "$lt"
	}
	field := q.sort.Column
	order := bson.D{{Key: field, Value: dir}, {Key: "_id", Value: dir}}
	project := summaryFields
	if q.project != nil {
		project = q.project
	}
	if q.check != nil {
		project = append(slices.Clip(project), checkFields...)
	}
	for {
		conds := slices.Clip(base)
		switch {
		case afterID == "":
		case nulls:
			conds = append(conds, fieldOp("_id", op, afterID))
		default:
			v := sortBSON(*after, q.sort.Kind)
			conds = append(conds, anyOf(fieldOp(field, op, v), bson.D{{Key: field, Value: v}, {Key: "_id", Value: bson.D{{Key: op, Value: afterID}}}}))
		}
		need := q.limit + 1 - len(*out)
		batch := need
		if q.check != nil {
			batch = max(need, 2*models.DefaultPageSize) // some found aggregates may not pass
		}
		var docs []taskDoc
		cur, err := s.tasks().Find(ctx, allOf(conds), options.Find().SetProjection(project).SetSort(order).SetLimit(int64(batch)))
		if err != nil {
			return translate(err)
		}
		if err := cur.All(ctx, &docs); err != nil {
			return translate(err)
		}
		for i := range docs {
			d := &docs[i]
			if q.check != nil && !q.check(d) {
				continue
			}
			d.Candidates, d.Exclusions = nil, nil // read for the check only: a list item has none
			if *out = append(*out, *d); len(*out) > q.limit {
				return nil
			}
		}
		if len(docs) < batch {
			return nil
		}
		last := &docs[len(docs)-1]
		v := q.sort.Value(&last.TaskRow)
		after, afterID = &v, last.ID
	}
}

// and is the conjunction of conds.
func allOf(conds []bson.D) bson.D {
	if len(conds) == 1 {
		return conds[0]
	}
	a := make(bson.A, len(conds))
	for i, c := range conds {
		a[i] = c
	}
	return bson.D{{Key: "$and", Value: a}}
}

// newTaskQuery checks f as every store does (storekit.NewListQuery).
func newTaskQuery(f models.TaskFilter) (*taskQuery, error) {
	lq, err := storekit.NewListQuery(f)
	if err != nil {
		return nil, err
	}
	return &taskQuery{f: lq.Filter, sort: lq.Sort, limit: lq.Limit, after: lq.After, afterID: lq.AfterID}, nil
}

// sortBSON is a cursor's sort value as compared in a query filter.
func sortBSON(v storekit.SortValue, kind storekit.ValueKind) any {
	switch kind {
	case storekit.KindTime:
		return v.Time
	case storekit.KindInt:
		return v.Int
	}
	return v.Text
}

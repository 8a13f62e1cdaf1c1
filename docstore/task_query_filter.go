package docstore

import (
	"context"
	"regexp"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

var (
	openStatuses             = storekit.StatusStrings(models.OpenStatuses)
	openTransitionalStatuses = storekit.StatusStrings(append(append([]models.Status{}, models.OpenStatuses...), models.TransitionalStatuses...))
	transitionalStatuses     = storekit.StatusStrings(models.TransitionalStatuses)
	terminalStatuses         = storekit.StatusStrings(models.TerminalStatuses)
	// healthSeverities are the severities of a finding (no finding is null).
	healthSeverities = []string{string(models.SeverityAdvisory), string(models.SeverityBlocking)}
)

func fieldEq(field string, v any) bson.D { return bson.D{{Key: field, Value: v}} }

func fieldOp(field, op string, v any) bson.D {
	return bson.D{{Key: field, Value: bson.D{{Key: op, Value: v}}}}
}

func fieldIn(field string, vs []string) bson.D { return fieldOp(field, "$in", vs) }

func anyOf(conds ...bson.D) bson.D {
	a := make(bson.A, len(conds))
	for i, c := range conds {
		a[i] = c
	}
	return bson.D{{Key: "$or", Value: a}}
}

// notBlocking hides tasks with blocking health; only the manager scopes list them ($ne
// matches null: no finding).
var notBlocking = fieldOp("health_severity", "$ne", string(models.SeverityBlocking))

// nothing matches no aggregate: a personal scope for an actor without a usable subject.
var nothing = fieldIn("_id", []string{})

// conditions is the authorized filter of the query, without the cursor, as conjuncts: the SQL
// store's WHERE clause (repository/task_query.go) over the aggregate's fields.
func (s *Store) conditions(ctx context.Context, q *taskQuery, now time.Time) ([]bson.D, error) {
	f := q.f
	where := []bson.D{fieldEq("tenant_id", f.Tenant)}
	scope, err := s.scopeConds(ctx, q, now)
	if err != nil {
		return nil, err
	}
	where = append(where, scope...)
	if len(f.Statuses) > 0 {
		where = append(where, fieldIn("status", storekit.StatusStrings(f.Statuses)))
	}
	if len(f.HealthCodes) > 0 {
		codes := slices.Compact(slices.Sorted(slices.Values(f.HealthCodes)))
		where = append(where, fieldIn("health_code", codes))
	}
	switch {
	case f.HealthSeverity != models.SeverityNone:
		where = append(where, fieldEq("health_severity", string(f.HealthSeverity)))
	case len(f.HealthCodes) > 0:
		// Both fields named: ix_tasks_health (tenant, severity, code) seeks the codes.
		where = append(where, fieldIn("health_severity", healthSeverities))
	}
	switch a := f.Assignee; {
	case a.Unassigned:
		where = append(where, fieldEq("assignee_id", nil))
	case a.Participant.ID != "":
		where = append(where, bson.D{{Key: "assignee_provider", Value: a.Participant.Provider},
			{Key: "assignee_type", Value: string(a.Participant.Type)}, {Key: "assignee_id", Value: a.Participant.ID}})
	}
	if f.PriorityFrom != nil {
		where = append(where, fieldOp("priority", "$gte", *f.PriorityFrom))
	}
	if f.PriorityTo != nil {
		where = append(where, fieldOp("priority", "$lte", *f.PriorityTo))
	}
	switch f.Due {
	case models.DueOverdue:
		where = append(where, fieldIn("status", openStatuses), anyOf(fieldEq("is_overdue", true), fieldOp("due_at", "$lt", now)))
	case models.DueToday, models.DueThisWeek:
		from, to := storekit.DueWindow(f.Due, now)
		where = append(where, fieldOp("due_at", "$gte", from), fieldOp("due_at", "$lt", to))
	case models.DueNoDueDate:
		where = append(where, fieldEq("due_at", nil))
	}
	if f.DueFrom != nil {
		where = append(where, fieldOp("due_at", "$gte", utc(*f.DueFrom)))
	}
	if f.DueTo != nil {
		where = append(where, fieldOp("due_at", "$lte", utc(*f.DueTo)))
	}
	for _, c := range []struct{ field, value string }{
		{"workflow_definition_id", f.WorkflowDefinitionID}, {"workflow_instance_id", f.WorkflowInstanceID},
		{"reference", f.Reference}, {"task_type", f.TaskType},
	} {
		if c.value != "" {
			where = append(where, fieldEq(c.field, c.value))
		}
	}
	if tag := models.NormalizeTag(f.Tag); tag != "" {
		where = append(where, fieldEq("tag_keys.tag", tag))
	}
	if needle := storekit.SearchNeedle(f.Search); needle != "" {
		// A literal substring: every regular-expression metacharacter is escaped. No "i" option:
		// search_text and the needle are both lower-cased in Go (storekit.SearchText), and the
		// regex's case folding would add Unicode's equivalences (σ/ς, s/ſ, µ/μ) the rule has not.
		where = append(where, fieldEq("search_text", bson.Regex{Pattern: regexp.QuoteMeta(needle)}))
	}
	return where, nil
}

// scopeConds is the authorization of the scope: who may see which aggregates.
func (s *Store) scopeConds(ctx context.Context, q *taskQuery, now time.Time) ([]bson.D, error) {
	f := q.f
	me := f.Actor.Subject
	if storekit.ScopeEmpty(f) {
		return []bson.D{nothing}, nil
	}
	switch f.Scope {
	case models.ScopeAssigned:
		return []bson.D{
			{{Key: "assignee_provider", Value: me.Provider}, {Key: "assignee_type", Value: string(me.Type)}, {Key: "assignee_id", Value: me.ID}},
			fieldIn("status", openTransitionalStatuses),
			notBlocking,
		}, nil
	case models.ScopeAvailable:
		q.check = eligible(f) // the candidates and exclusions, entry by entry (task_query_available.go)
		return []bson.D{
			fieldEq("status", string(models.StatusAvailable)),
			fieldEq("assignee_id", nil),
			notBlocking,
			availableConds(f),
		}, nil
	case models.ScopeHistory:
		ids, err := s.actedOn(ctx, f.Tenant, me)
		if err != nil {
			return nil, err
		}
		mine := bson.D{{Key: "completed_by_provider", Value: me.Provider}, {Key: "completed_by_type", Value: string(me.Type)},
			{Key: "completed_by_id", Value: me.ID}}
		return []bson.D{fieldIn("status", terminalStatuses), notBlocking, anyOf(mine, fieldIn("_id", ids))}, nil
	case models.ScopeNeedsAttention:
		// models.AttentionRule: never a terminal task; any health finding, open and overdue,
		// open and unassigned since before the threshold, or transitional too long.
		return []bson.D{
			fieldIn("status", openTransitionalStatuses),
			anyOf(fieldIn("health_severity", healthSeverities),
				bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: openStatuses}}}, {Key: "$or", Value: bson.A{
					fieldEq("is_overdue", true), fieldOp("due_at", "$lt", now),
					bson.D{{Key: "assignee_id", Value: nil}, {Key: "created_at", Value: bson.D{{Key: "$lt", Value: now.Add(-f.UnassignedAfter)}}}},
				}}},
				bson.D{{Key: "status", Value: bson.D{{Key: "$in", Value: transitionalStatuses}}},
					{Key: "transitioned_at", Value: bson.D{{Key: "$lt", Value: now.Add(-f.StaleAfter)}}}}),
		}, nil
	}
	return nil, nil // ScopeAll: the whole tenant
}

// actedOn lists the tasks of the tenant with an event the person acted in: those the relay
// moved to user_task_events (ix_events_actor) and those still pending in their aggregate.
func (s *Store) actedOn(ctx context.Context, tenant string, me models.ParticipantRef) ([]string, error) {
	actor := bson.D{{Key: "tenant_id", Value: tenant}, {Key: "actor_provider", Value: me.Provider},
		{Key: "actor_type", Value: string(me.Type)}, {Key: "actor_id", Value: me.ID}}
	var moved []struct {
		TaskID string `bson:"task_id"`
	}
	cur, err := s.db.Collection(eventCollection).Find(ctx, actor, optionsProject("task_id"))
	if err != nil {
		return nil, translate(err)
	}
	if err := cur.All(ctx, &moved); err != nil {
		return nil, translate(err)
	}
	ids := make([]string, 0, len(moved))
	for _, m := range moved {
		ids = append(ids, m.TaskID)
	}
	var pending []struct {
		ID     string     `bson:"_id"`
		Events []eventDoc `bson:"pending_events"`
	}
	// Dotted fields (FerretDB runs $elemMatch with operators only), then the entries themselves.
	cur, err = s.tasks().Find(ctx, bson.D{{Key: "tenant_id", Value: tenant}, {Key: "pending_events.actor_provider", Value: me.Provider},
		{Key: "pending_events.actor_type", Value: string(me.Type)}, {Key: "pending_events.actor_id", Value: me.ID}},
		optionsProject("_id", "pending_events"))
	if err != nil {
		return nil, translate(err)
	}
	if err := cur.All(ctx, &pending); err != nil {
		return nil, translate(err)
	}
	for _, p := range pending {
		if slices.ContainsFunc(p.Events, func(e eventDoc) bool {
			return storekit.Str(e.ActorProvider) == me.Provider && storekit.Str(e.ActorType) == string(me.Type) && storekit.Str(e.ActorID) == me.ID
		}) {
			ids = append(ids, p.ID)
		}
	}
	// Never nil: slices.Sorted of nothing is nil, which goes out as {$in: null}, an error (a
	// person who has acted in no task yet).
	return append([]string{}, slices.Compact(slices.Sorted(slices.Values(ids)))...), nil
}

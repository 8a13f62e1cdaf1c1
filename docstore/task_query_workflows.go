package docstore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/models"
	"usertasks/storekit"
)

// WorkflowChoices lists the distinct workflow definitions of the tasks f.Actor may see in
// f.Scope, ordered by id, at most limit, as repository.Store.WorkflowChoices: only the scope and
// its authorization narrow the tasks, and the manager scopes offer the whole tenant's. The definitions are read one seek at a time (a loose index
// scan over ix_tasks_workflow_created, led by tenant_id and workflow_definition_id): the first definition
// after the previous one, then that definition's greatest name (SQL's MAX, nulls ignored).
func (s *Store) WorkflowChoices(ctx context.Context, f models.TaskFilter, limit int) ([]models.WorkflowChoice, error) {
	q, err := newTaskQuery(models.TaskFilter{Tenant: f.Tenant, Scope: f.Scope, Actor: f.Actor, StaleAfter: f.StaleAfter})
	if err != nil {
		return nil, err
	}
	limit = max(1, min(limit, models.MaxPageSize))
	now, err := s.Now(ctx)
	if err != nil {
		return nil, err
	}
	where, err := s.conditions(ctx, q, now)
	if err != nil {
		return nil, err
	}
	if q.f.Scope.ManagerOnly() {
		// As on SQL: the manager scopes offer every definition of the tenant.
		where = []bson.D{fieldEq("tenant_id", q.f.Tenant)}
	}
	if q.check != nil {
		return s.checkedChoices(ctx, q, where, limit)
	}
	out := []models.WorkflowChoice{}
	for len(out) < limit {
		seek := where
		if len(out) > 0 {
			seek = append(append([]bson.D(nil), where...), fieldOp("workflow_definition_id", "$gt", out[len(out)-1].ID))
		}
		var next taskDoc
		err := s.tasks().FindOne(ctx, allOf(seek), options.FindOne().SetSort(bson.D{{Key: "workflow_definition_id", Value: 1}}).
			SetProjection(bson.D{{Key: "workflow_definition_id", Value: 1}})).Decode(&next)
		if errors.Is(err, mongo.ErrNoDocuments) {
			break
		}
		if err != nil {
			return nil, translate(err)
		}
		var named taskDoc
		err = s.tasks().FindOne(ctx, allOf(append(append([]bson.D(nil), where...), fieldEq("workflow_definition_id", next.WorkflowDefinitionID))),
			options.FindOne().SetSort(bson.D{{Key: "workflow_definition_name", Value: -1}}).
				SetProjection(bson.D{{Key: "workflow_definition_name", Value: 1}})).Decode(&named)
		if err != nil {
			return nil, translate(err)
		}
		out = append(out, models.WorkflowChoice{ID: next.WorkflowDefinitionID, Name: storekit.Str(named.WorkflowDefinitionName)})
	}
	return out, nil
}

// checkedChoices reads the choices of a scope with a check (available) in one walk of its
// aggregates in definition order: each definition whose aggregates pass, with the greatest name.
func (s *Store) checkedChoices(ctx context.Context, q *taskQuery, where []bson.D, limit int) ([]models.WorkflowChoice, error) {
	project := append(bson.D{{Key: "workflow_definition_id", Value: 1}, {Key: "workflow_definition_name", Value: 1},
		{Key: "membership_mode", Value: 1}}, checkFields...)
	cur, err := s.tasks().Find(ctx, allOf(where), options.Find().SetProjection(project).
		SetSort(bson.D{{Key: "workflow_definition_id", Value: 1}}))
	if err != nil {
		return nil, translate(err)
	}
	defer func() { _ = cur.Close(ctx) }()
	out := []models.WorkflowChoice{}
	for cur.Next(ctx) {
		var d taskDoc
		if err := cur.Decode(&d); err != nil {
			return nil, translate(err)
		}
		if !q.check(&d) {
			continue
		}
		name := storekit.Str(d.WorkflowDefinitionName)
		if n := len(out); n > 0 && out[n-1].ID == d.WorkflowDefinitionID {
			out[n-1].Name = max(out[n-1].Name, name)
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, models.WorkflowChoice{ID: d.WorkflowDefinitionID, Name: name})
	}
	return out, translate(cur.Err())
}

// optionsProject finds the named fields only.
func optionsProject(fields ...string) options.Lister[options.FindOptions] {
	p := bson.D{}
	for _, f := range fields {
		p = append(p, bson.E{Key: f, Value: 1})
	}
	return options.Find().SetProjection(p)
}

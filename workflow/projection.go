// Package workflow is the workflow-runtime protocol of User Tasks (SPEC 5.2): projecting
// committed bookmarks into tasks (with snapshot expansion through a participant directory and
// form pinning through form sources), finalizing removed bookmarks, and the runtimes that
// receive resumptions (the HTTP runtime client and the built-in loopback). The background
// jobs that drive the protocol live in package workers.
package workflow

import (
	"context"
	"errors"
	"time"

	"usertasks/forms"
	"usertasks/models"
)

// ProjectionStore is what projection needs from the store; store.Store satisfies it.
type ProjectionStore interface {
	Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error)
	FindByMaterializationKey(ctx context.Context, tenant, key string) (models.Task, error)
	FindByBookmarkID(ctx context.Context, tenant, bookmarkID string) (models.Task, error)
}

// Projector materializes workflow bookmarks as tasks. It is safe for concurrent use.
type Projector struct {
	store    ProjectionStore
	resolver *Resolver
}

// NewProjector builds a Projector; a nil resolver has no directory and no form providers.
func NewProjector(store ProjectionStore, resolver *Resolver) *Projector {
	if resolver == nil {
		resolver = NewResolver(ResolverOptions{})
	}
	return &Projector{store: store, resolver: resolver}
}

// Project materializes one bookmark of tenant (SPEC 5.2, 3.3 first rows). It answers the task
// and whether this call created it; a repeat — same materialization key or same bookmark id —
// answers the existing task with created false and writes nothing.
//
// In order: the request is validated (a *models.ValidationError naming wire fields such as
// "task.title"; nothing is looked up for an invalid request); an existing projection is
// answered as is; snapshot groups are expanded and a form reference pinned, outside any
// transaction; then the task is created in one transaction (capacity counted inside it). An
// expansion or resolution failure does not refuse the projection: the task is created with the
// blocking finding (snapshot-directory-missing, snapshot-resolution-failed,
// form-provider-missing or form-resolution-failed), the requested form kept for a retry.
func (p *Projector) Project(ctx context.Context, tenant string, req ProjectionRequest) (models.Task, bool, error) {
	proj, form, problems := req.projection(tenant)
	dry := proj
	if form.inline != nil {
		dry.Form = &models.PinnedForm{Schema: form.inline}
	}
	_, err := models.Project(dry, time.Now().UTC())
	if err := wireErrors(err, problems); err != nil {
		return models.Task{}, false, err
	}
	if form.inline != nil {
		if _, err := forms.Parse(form.inline); err != nil {
			return models.Task{}, false, wireErrors(err, nil)
		}
	}

	key := models.MaterializationKey(tenant, proj.Workflow.InstanceID, proj.Workflow.ActivityInstanceID)
	if t, err := p.existing(ctx, tenant, key, proj.Workflow.BookmarkID); err == nil || !errors.Is(err, models.ErrNotFound) {
		return t, false, err
	}

	var findings []models.Health
	if proj.Mode == models.MembershipSnapshot {
		kept := len(proj.CandidateUsers) + len(proj.CandidateGroups) + len(proj.ExcludedUsers)
		members, h := p.resolver.expand(ctx, tenant, proj.CandidateGroups, models.MaxParticipantsPerTask-kept)
		proj.SnapshotMembers = members
		if h.Severity != models.SeverityNone {
			findings = append(findings, h)
		}
	}
	switch {
	case form.inline != nil:
		proj.Form = &models.PinnedForm{Schema: form.inline}
	case form.ref != nil:
		pinned, h := p.resolver.resolveForm(ctx, tenant, *form.ref)
		proj.Form = pinned
		if h.Severity != models.SeverityNone {
			findings = append(findings, h)
		}
	}
	if err := ctx.Err(); err != nil {
		return models.Task{}, false, err // the caller gave up: a timeout is no resolution failure
	}
	if len(findings) > 0 {
		proj.Health = findings[0]
	}

	t, created, err := p.store.Create(ctx, tenant, key, proj.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(proj, now)
	})
	if err != nil {
		return models.Task{}, false, wireErrors(err, nil)
	}
	return t, created, nil
}

// existing finds an earlier projection of the same step or the same bookmark.
func (p *Projector) existing(ctx context.Context, tenant, key, bookmarkID string) (models.Task, error) {
	t, err := p.store.FindByMaterializationKey(ctx, tenant, key)
	if !errors.Is(err, models.ErrNotFound) {
		return t, err
	}
	return p.store.FindByBookmarkID(ctx, tenant, bookmarkID)
}

// asValidation unwraps a validation error.
func asValidation(err error) (*models.ValidationError, bool) {
	var ve *models.ValidationError
	ok := errors.As(err, &ve)
	return ve, ok
}

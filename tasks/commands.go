package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"usertasks/models"
)

// requirePermission is the 403 step: decided from the token alone, before any task is loaded.
func requirePermission(a models.Actor, perm string) error {
	if a.Guest != nil || !models.ActorCan(a, perm) {
		return models.ErrForbidden
	}
	return nil
}

// Common is what every command carries.
type Common struct {
	ExpectedRevision int
	OperationID      string
}

func (c Common) command(kind models.OperationKind, a models.Actor, prior *models.Operation) models.Command {
	return models.Command{Kind: kind, OperationID: c.OperationID, ExpectedRevision: c.ExpectedRevision, Actor: a, Prior: prior}
}

// possibleID answers, as not found, a task id no task can have (ids are minted UUIDs), before
// it reaches the store: a NUL or invalid UTF-8 makes some database drivers fail instead of
// finding nothing.
func possibleID(id string) error {
	if models.TextProblem(id, models.Identifier) != "" {
		return models.ErrNotFound
	}
	return nil
}

// run applies one command through the store and shapes its answer. reads is the protected
// content the decision reads; the store loads and decrypts only that (the answer's task view
// carries none of it).
func (s *Service) run(ctx context.Context, a models.Actor, id, opID string, reads models.ProtectedParts, decide func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error)) (Result, error) {
	if err := possibleID(id); err != nil {
		return Result{}, err
	}
	change, err := s.store.Mutate(models.ReadingProtected(ctx, reads), a.Tenant, id, opID, decide)
	if err != nil {
		return Result{}, err
	}
	if change.Replay != nil {
		return s.replayed(ctx, a, id, change.Replay)
	}
	res := Result{OperationID: change.Operation.OperationID, Status: "completed", Revision: change.Task.Revision, Task: viewOf(change.Task, a, true)}
	if change.Operation.State == models.OperationAccepted {
		res.Status = "accepted"
	}
	return res, nil
}

// transition is a lifecycle transition of models with the command built: its own arguments
// are the caller's to bind.
type transition func(t models.Task, cmd models.Command, now time.Time) (models.Change, error)

// command runs a command that needs nothing but its permission and the task: observed as
// kind, refused (403) without perm before the task is loaded, then decided by tr through run.
func (s *Service) command(ctx context.Context, a models.Actor, id string, in Common, kind models.OperationKind, perm string, tr transition) (res Result, err error) {
	ctx, done := s.observe(ctx, kind)
	defer done(&res, &err)
	if err := requirePermission(a, perm); err != nil {
		return Result{}, err
	}
	return s.run(ctx, a, id, in.OperationID, models.ReadsForTransition, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		return tr(t, in.command(kind, a, prior), now)
	})
}

// replayed answers a repeated operation with its stored outcome and the task as it is now.
func (s *Service) replayed(ctx context.Context, a models.Actor, id string, op *models.Operation) (Result, error) {
	var stored struct {
		Status   string `json:"status"`
		Revision int    `json:"revision"`
	}
	if err := json.Unmarshal(op.Result, &stored); err != nil {
		return Result{}, &models.CorruptError{TaskID: id, Reason: "stored operation result does not decode"}
	}
	t, err := s.store.Get(ctx, a.Tenant, id)
	if err != nil {
		return Result{}, err
	}
	return Result{OperationID: op.OperationID, Status: stored.Status, Revision: stored.Revision, Task: viewOf(t, a, true), Replayed: true}, nil
}

// Claim handles claim: an eligible candidate takes an Available task.
func (s *Service) Claim(ctx context.Context, a models.Actor, id string, in Common) (Result, error) {
	res, err := s.command(ctx, a, id, in, models.OpClaim, models.PermClaim, models.Claim)
	if !errors.Is(err, models.ErrNotFound) {
		return res, err
	}
	// Not a candidate in their own right: a substitute claims the absent users' direct
	// candidacies too (SPEC 10.5). Asked only then, so a candidate's claim reads no absence.
	sub, serr := s.standingIn(ctx, a)
	if serr != nil {
		return Result{}, serr
	}
	if len(sub.StandsInFor) == 0 {
		return res, err
	}
	return s.command(ctx, sub, id, in, models.OpClaim, models.PermClaim, models.Claim)
}

// ReleaseInput is a release request.
type ReleaseInput struct {
	Common
	Reason string
}

// Release handles release: the assignee hands the task back.
func (s *Service) Release(ctx context.Context, a models.Actor, id string, in ReleaseInput) (Result, error) {
	return s.command(ctx, a, id, in.Common, models.OpRelease, models.PermClaim, func(t models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.Release(t, cmd, in.Reason, now)
	})
}

// AssignInput is an assign or reassign request.
type AssignInput struct {
	Common
	Assignee models.ParticipantRef // Tenant is filled from the actor
	Reason   string
}

// Assign handles assign: a manager assigns an open task.
func (s *Service) Assign(ctx context.Context, a models.Actor, id string, in AssignInput) (res Result, err error) {
	ctx, done := s.observe(ctx, models.OpAssign)
	defer done(&res, &err)
	if err := requirePermission(a, models.PermAssign); err != nil {
		return Result{}, err
	}
	assignee := in.Assignee
	assignee.Tenant = a.Tenant // wire participants never carry a tenant
	if assignee.Provider == "" {
		assignee.Provider = models.DefaultProvider
	}
	assignee, err = s.knownAssignee(ctx, a, id, assignee)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx, a, id, in.OperationID, models.ReadsForTransition, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		return models.Assign(t, in.command(models.OpAssign, a, prior), assignee, in.Reason, now)
	})
}

// ScheduleInput is a schedule update: nil fields stay; ClearDue removes the due date.
type ScheduleInput struct {
	Common
	Priority *int
	DueAt    *time.Time
	ClearDue bool
}

// UpdateSchedule handles the manager's priority and due date change.
func (s *Service) UpdateSchedule(ctx context.Context, a models.Actor, id string, in ScheduleInput) (Result, error) {
	return s.command(ctx, a, id, in.Common, models.OpScheduleUpdate, models.PermUpdate, func(t models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.UpdateSchedule(t, cmd, in.Priority, in.DueAt, in.ClearDue, now)
	})
}

// CancelInput is a cancellation request.
type CancelInput struct {
	Common
	Reason string
}

// Cancel handles cancel: a manager cancels an open task with a reason.
func (s *Service) Cancel(ctx context.Context, a models.Actor, id string, in CancelInput) (Result, error) {
	return s.command(ctx, a, id, in.Common, models.OpCancel, models.PermCancel, func(t models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.Cancel(t, cmd, in.Reason, now)
	})
}

// RetryResolution handles retry-resolution: a manager re-resolves the form and snapshot
// membership; success clears the health finding.
func (s *Service) RetryResolution(ctx context.Context, a models.Actor, id string, in Common) (res Result, err error) {
	ctx, done := s.observe(ctx, models.OpRetryResolution)
	defer done(&res, &err)
	if err := requirePermission(a, models.PermSupervise); err != nil {
		return Result{}, err
	}
	if err := possibleID(id); err != nil {
		return Result{}, err
	}
	current, err := s.store.Get(ctx, a.Tenant, id)
	if err != nil {
		return Result{}, err
	}
	if !models.Relate(current, a, false).Manager {
		return Result{}, models.ErrNotFound
	}
	resolved, err := s.resolver.Resolve(ctx, current)
	if err != nil {
		return Result{}, fmt.Errorf("resolve: %w", err)
	}
	return s.run(ctx, a, id, in.OperationID, models.ReadsAllProtected, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		return models.RetryResolution(t, in.command(models.OpRetryResolution, a, prior), resolved.Form, resolved.Snapshot, resolved.Health, now)
	})
}

// Reveal returns one masked field's value and records the audited field-revealed event.
func (s *Service) Reveal(ctx context.Context, a models.Actor, id, fieldKey string) (any, error) {
	if a.Guest == nil {
		if err := requirePermission(a, models.PermView); err != nil {
			return nil, err
		}
	}
	t, v, err := s.readable(ctx, a, id)
	if err != nil {
		return nil, err
	}
	if !models.CanReadProtected(t, a, v.Relation) {
		return nil, models.ErrNotFound
	}
	form, err := pinnedForm(t)
	if err != nil {
		return nil, err
	}
	if form == nil {
		return nil, models.InvalidField("fieldKey", "the task has no form")
	}
	value, err := form.Reveal(shownValues(t), fieldKey)
	if err != nil {
		return nil, err
	}
	_, err = s.store.AppendEvent(ctx, a.Tenant, id, func(now time.Time, cur models.Task) (models.Event, error) {
		return models.FieldRevealed(cur, a, fieldKey, now)
	})
	if err != nil {
		return nil, err
	}
	return value, nil
}

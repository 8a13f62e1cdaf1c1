package tasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"usertasks/models"
)

// BulkAction is what a bulk request does to each of its tasks. "Change priority" and
// "reschedule" are both BulkSchedule.
type BulkAction string

const (
	BulkAssign          BulkAction = "assign"
	BulkSchedule        BulkAction = "schedule"
	BulkCancel          BulkAction = "cancel"
	BulkRetryResolution BulkAction = "retry-resolution"
)

// bulkPermission is the permission each bulk action needs on top of the manager role.
var bulkPermission = map[BulkAction]string{
	BulkAssign:          models.PermAssign,
	BulkSchedule:        models.PermUpdate,
	BulkCancel:          models.PermCancel,
	BulkRetryResolution: models.PermSupervise,
}

// MaxBulkItems is the most tasks one bulk request may name (SPEC 5.1).
const MaxBulkItems = 200

// MaxBulkOperationIDLength leaves room in an item's operation id, `<operationId>:<taskId>`, for
// the colon and a task id (a UUID, 36 characters).
const MaxBulkOperationIDLength = models.MaxOperationIDLength - 37

// BulkItem names one task and the revision the caller saw.
type BulkItem struct {
	TaskID           string
	ExpectedRevision int
}

// BulkInput is a bulk request. Which of Assignee, Priority, DueAt/ClearDue and Reason it needs
// depends on Action; a field the action does not use is refused.
type BulkInput struct {
	Action      BulkAction
	Items       []BulkItem
	OperationID string
	Assignee    *models.ParticipantRef // assign; the tenant is always the caller's
	Priority    *int                   // schedule
	DueAt       *time.Time             // schedule
	ClearDue    bool                   // schedule: remove the due date
	Reason      string                 // cancel (required), assign (optional)
}

// BulkOutcome is how one item of a bulk request ended.
type BulkOutcome string

const (
	// BulkDone: the command committed (or had committed: a replay answers done again).
	BulkDone BulkOutcome = "done"
	// BulkConflict: the task changed since the caller read it (revision-conflict); reload it.
	BulkConflict BulkOutcome = "conflict"
	// BulkRefused: the command was refused; Code says why. A task that is missing or not
	// visible is refused with not-found, whatever the reason.
	BulkRefused BulkOutcome = "refused"
)

// BulkItemResult is one item's outcome, in request order. Title is the task's title when the
// caller may see the task ("" otherwise); Revision is the task's revision after the command
// (done) or now (conflict, refused), 0 when the task is not visible.
type BulkItemResult struct {
	TaskID   string
	Title    string
	Outcome  BulkOutcome
	Code     models.Code
	Revision int
}

// Bulk runs one action over many tasks, each item its own revision-checked, idempotent command
// with the operation id `<operationId>:<taskId>` through the same command as a single request
// (Assign, UpdateSchedule, Cancel, RetryResolution). Managers only: 403 before any task is
// loaded; then the request is validated as a whole (422 naming the field). What one item's
// command refuses is that item's outcome; only what no item can answer for (the database busy,
// an internal error) fails the request, which the caller may then repeat: the items already
// done replay as done.
func (s *Service) Bulk(ctx context.Context, a models.Actor, in BulkInput) ([]BulkItemResult, error) {
	if err := MayBulk(a); err != nil {
		return nil, err
	}
	if perm, ok := bulkPermission[in.Action]; ok {
		if err := requirePermission(a, perm); err != nil {
			return nil, err
		}
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	out := make([]BulkItemResult, 0, len(in.Items))
	for _, item := range in.Items {
		r, err := s.bulkItem(ctx, a, in, item)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// MayBulk is the first check of a bulk request, decided from the caller alone: managers only.
// A door that must read a large request first asks it before reading (403 before 400 or 422).
func MayBulk(a models.Actor) error {
	if a.Guest != nil || a.System || !a.Manager {
		return models.ErrForbidden
	}
	return nil
}

// bulkItem runs the action on one task and classifies its answer.
func (s *Service) bulkItem(ctx context.Context, a models.Actor, in BulkInput, item BulkItem) (BulkItemResult, error) {
	common := Common{ExpectedRevision: item.ExpectedRevision, OperationID: in.OperationID + ":" + item.TaskID}
	var res Result
	var err error
	switch in.Action {
	case BulkAssign:
		res, err = s.Assign(ctx, a, item.TaskID, AssignInput{Common: common, Assignee: *in.Assignee, Reason: in.Reason})
	case BulkSchedule:
		res, err = s.UpdateSchedule(ctx, a, item.TaskID, ScheduleInput{Common: common, Priority: in.Priority, DueAt: in.DueAt, ClearDue: in.ClearDue})
	case BulkCancel:
		res, err = s.Cancel(ctx, a, item.TaskID, CancelInput{Common: common, Reason: in.Reason})
	case BulkRetryResolution:
		res, err = s.RetryResolution(ctx, a, item.TaskID, common)
	}
	if err == nil {
		return BulkItemResult{TaskID: item.TaskID, Title: res.Task.Task.Title, Outcome: BulkDone, Revision: res.Revision}, nil
	}
	code := models.ErrorCode(err)
	if !itemCode(err) {
		return BulkItemResult{}, err
	}
	r := BulkItemResult{TaskID: item.TaskID, Outcome: BulkRefused, Code: code}
	if code == models.CodeRevisionConflict {
		r.Outcome = BulkConflict
	}
	if code == models.CodeNotFound {
		return r, nil
	}
	t, _, rerr := s.readable(ctx, a, item.TaskID)
	switch {
	case errors.Is(rerr, models.ErrNotFound): // gone or hidden since: say no more
		return BulkItemResult{TaskID: item.TaskID, Outcome: BulkRefused, Code: models.CodeNotFound}, nil
	case rerr != nil:
		return BulkItemResult{}, rerr
	}
	r.Title, r.Revision = t.Title, t.Revision
	return r, nil
}

// itemCode reports whether err is an answer about one item — not found, a conflict, a refused
// request — rather than a failure of the request as a whole.
func itemCode(err error) bool {
	var ce *models.ConflictError
	var ve *models.ValidationError
	return errors.Is(err, models.ErrNotFound) || errors.As(err, &ce) || errors.As(err, &ve)
}

// validate checks the request as a whole, before any task is loaded; every problem names its
// field.
func (in BulkInput) validate() error {
	var problems []models.FieldError
	fail := func(field, message string) {
		problems = append(problems, models.FieldError{Field: field, Message: message})
	}
	if msg := models.FieldProblem(in.OperationID, MaxBulkOperationIDLength, true, models.Identifier); msg != "" {
		fail("operationId", msg)
	}
	switch n := len(in.Items); {
	case n == 0:
		fail("items", "must name at least one task")
	case n > MaxBulkItems:
		fail("items", fmt.Sprintf("must name at most %d tasks", MaxBulkItems))
	default:
		first := make(map[string]int, n)
		for i, item := range in.Items {
			field := fmt.Sprintf("items[%d]", i)
			if item.TaskID == "" {
				fail(field+".taskId", "is required")
			} else if j, dup := first[item.TaskID]; dup {
				fail(field+".taskId", fmt.Sprintf("repeats items[%d]", j))
			} else {
				first[item.TaskID] = i
			}
			if item.ExpectedRevision < 1 {
				fail(field+".expectedRevision", "must be at least 1")
			}
		}
	}
	unused := func(field string, set bool) {
		if set {
			fail(field, "is not used by "+string(in.Action))
		}
	}
	needsReason := false
	switch in.Action {
	case BulkAssign:
		if in.Assignee == nil {
			fail("assignee", "is required")
		} else {
			checkAssignee(*in.Assignee, fail)
		}
		unused("priority", in.Priority != nil)
		unused("dueAt", in.DueAt != nil || in.ClearDue)
	case BulkSchedule:
		if in.Priority == nil && in.DueAt == nil && !in.ClearDue {
			fail("priority", "priority or dueAt is required")
		}
		unused("assignee", in.Assignee != nil)
		unused("reason", in.Reason != "")
	case BulkCancel:
		needsReason = true
		unused("assignee", in.Assignee != nil)
		unused("priority", in.Priority != nil)
		unused("dueAt", in.DueAt != nil || in.ClearDue)
	case BulkRetryResolution:
		unused("assignee", in.Assignee != nil)
		unused("priority", in.Priority != nil)
		unused("dueAt", in.DueAt != nil || in.ClearDue)
		unused("reason", in.Reason != "")
	default:
		fail("action", "must be assign, schedule, cancel or retry-resolution")
	}
	if msg := models.FieldProblem(in.Reason, models.MaxReasonLength, needsReason, models.Prose); msg != "" {
		fail("reason", msg)
	}
	if len(problems) > 0 {
		return models.Invalid(models.CodeValidationFailed, problems...)
	}
	if in.Priority != nil && (*in.Priority < models.MinPriority || *in.Priority > models.MaxPriority) {
		return models.Invalid(models.CodeInvalidPriority, models.FieldError{Field: "priority",
			Message: fmt.Sprintf("must be between %d and %d", models.MinPriority, models.MaxPriority)})
	}
	return nil
}

// checkAssignee checks the shape of a bulk request's assignee once, so that an assignee no task
// can take is the request's 422, not every item's refusal. Whether a task can take this one
// (exclusions) is each item's answer.
func checkAssignee(p models.ParticipantRef, fail func(field, message string)) {
	for _, f := range []struct {
		field, value string
		limit        int
		required     bool
		kind         models.TextKind
	}{
		{"assignee.id", p.ID, models.MaxParticipantIDLength, true, models.Identifier},
		{"assignee.provider", p.Provider, models.MaxProviderLength, false, models.Identifier},
		{"assignee.displayName", p.DisplayName, models.MaxDisplayNameLength, false, models.Label},
	} {
		if msg := models.FieldProblem(f.value, f.limit, f.required, f.kind); msg != "" {
			fail(f.field, msg)
		}
	}
	if p.Type != "" && p.Type != models.UserParticipant {
		fail("assignee.type", "must be "+string(models.UserParticipant))
	}
	if p.Provider == models.GuestProvider {
		fail("assignee.provider", "guest participants come from invitations only")
	}
}

package handlers

import (
	"context"

	"usertasks/models"
	"usertasks/tasks"
)

// TaskService is what the JSON API and the pages need from the lifecycle service;
// *tasks.Service satisfies it.
type TaskService interface {
	Capabilities(a models.Actor) tasks.Capabilities
	List(ctx context.Context, a models.Actor, f models.TaskFilter) (tasks.Page, error)
	Detail(ctx context.Context, a models.Actor, id string) (tasks.Detail, error)
	Events(ctx context.Context, a models.Actor, id, cursor string, limit int) (tasks.EventPage, error)

	Claim(ctx context.Context, a models.Actor, id string, in tasks.Common) (tasks.Result, error)
	Release(ctx context.Context, a models.Actor, id string, in tasks.ReleaseInput) (tasks.Result, error)
	Assign(ctx context.Context, a models.Actor, id string, in tasks.AssignInput) (tasks.Result, error)
	Delegate(ctx context.Context, a models.Actor, id string, in tasks.DelegateInput) (tasks.Result, error)
	Return(ctx context.Context, a models.Actor, id string, in tasks.ReturnInput) (tasks.Result, error)
	UpdateSchedule(ctx context.Context, a models.Actor, id string, in tasks.ScheduleInput) (tasks.Result, error)
	Complete(ctx context.Context, a models.Actor, id string, in tasks.CompleteInput) (tasks.Result, error)
	// CompleteForm is the task page's completion: form values in, the page to show again out.
	CompleteForm(ctx context.Context, a models.Actor, id string, in tasks.FormCompleteInput) (tasks.FormCompletion, error)
	Cancel(ctx context.Context, a models.Actor, id string, in tasks.CancelInput) (tasks.Result, error)
	RetryResolution(ctx context.Context, a models.Actor, id string, in tasks.Common) (tasks.Result, error)
	Reveal(ctx context.Context, a models.Actor, id, fieldKey string) (any, error)
	Access(ctx context.Context, a models.Actor, id string, in tasks.AccessInput) (models.Access, error)
	Bulk(ctx context.Context, a models.Actor, in tasks.BulkInput) ([]tasks.BulkItemResult, error)
	// Participants searches the participant directory; ParticipantNames names participants
	// that carry no name of their own (participants.go in tasks).
	Participants(ctx context.Context, a models.Actor, q tasks.ParticipantQuery) (tasks.ParticipantPage, error)
	ParticipantNames(ctx context.Context, a models.Actor, refs []models.ParticipantRef) map[string]string
	// GuestNames names a task's guests by their invitations' recipients, for a caller who may
	// read its protected content (queries.go in tasks).
	GuestNames(ctx context.Context, a models.Actor, id string) (map[string]string, error)
	HasDirectory() bool
	// The comments of a task (comments.go in tasks).
	AddComment(ctx context.Context, a models.Actor, id string, in tasks.CommentInput) (models.Comment, error)
	Comments(ctx context.Context, a models.Actor, id string, after *models.CommentCursor, limit int) (tasks.CommentPage, error)
	DeleteComment(ctx context.Context, a models.Actor, id, commentID string) (models.Comment, error)
	// ActivityCounts counts the comments and files of a list page's tasks, for the inbox rows
	// (activity.go in tasks).
	ActivityCounts(ctx context.Context, a models.Actor, items []tasks.TaskView) (map[string]models.ActivityCount, error)
	// Absence, PutAbsence and DeleteAbsence keep out-of-office absences (absence.go in tasks):
	// the caller's (who nil) or, for a manager, another user's of the tenant.
	Absence(ctx context.Context, a models.Actor, who *models.ParticipantRef) (tasks.AbsenceView, error)
	PutAbsence(ctx context.Context, a models.Actor, who *models.ParticipantRef, in tasks.AbsenceInput) (tasks.AbsenceView, error)
	DeleteAbsence(ctx context.Context, a models.Actor, who *models.ParticipantRef) error
	// OnBehalfOf tells the rows of an available page a substitute sees for an absent user
	// (substitute_rows.go in tasks).
	OnBehalfOf(ctx context.Context, a models.Actor, f models.TaskFilter, page tasks.Page) ([]*models.ParticipantRef, error)
}

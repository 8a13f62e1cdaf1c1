package stress

import (
	"context"
	"fmt"

	"usertasks/models"
	"usertasks/workflow"
)

// Target is the system under load, the store directly or a server over HTTP. Each method
// reports how the operation ended; a conflict (a lost race) is an outcome, not an error.
type Target interface {
	Name() string
	// Project materializes a bookmark; repeated answers a duplicate delivery with the task.
	Project(ctx context.Context, tenant string, req workflow.ProjectionRequest) (Item, Outcome, error)
	// Claim and Complete run the command with a revision check; Item is the task afterwards.
	Claim(ctx context.Context, a models.Actor, id string, revision int, operationID string) (Item, Outcome, error)
	Complete(ctx context.Context, a models.Actor, id string, revision int, operationID string) (Item, Outcome, error)
	// List reads one inbox page.
	List(ctx context.Context, a models.Actor, q ListQuery) (Page, error)
}

// Subscriber is a Target with a live stream (the HTTP API's SSE): Subscribe connects one
// subscriber that counts the messages it receives until ctx ends.
type Subscriber interface {
	Subscribe(ctx context.Context, a models.Actor) (received func() int, err error)
}

// Finalizer is a Target without a server behind it: it plays the workflow runtime for the
// round's tasks, finalizing those that wait on it. A server's own runtime does this for an
// HTTP target.
type Finalizer interface {
	Finalize(ctx context.Context, tenant string, ids []string) error
}

// Inspector reads what the invariants are checked against.
type Inspector interface {
	Inspect(ctx context.Context, tenant, id string) (Facts, error)
	// Count counts every task of the tenant.
	Count(ctx context.Context, tenant string) (int, error)
	// Transitional reports whether a task of the tenant still waits for the runtime
	// (Completing, TimingOut, Cancelling): one page of one row, so the harness can watch for
	// the last finalization without reading every task.
	Transitional(ctx context.Context, tenant string) (bool, error)
}

// Item is a task as the harness follows it.
type Item struct {
	ID       string
	Revision int
	Status   models.Status
}

// Page is one inbox page.
type Page struct {
	Items []Item
	Next  string
}

// ListQuery is an inbox query: the available scope of the actor with optional filters.
type ListQuery struct {
	Scope        models.Scope
	Search       string
	Tag          string
	PriorityFrom *int
	Sort         models.SortKey
	Descending   bool
	Cursor       string
	Limit        int
}

// Facts are a task's state and rows. Outbox is -1 when the inspector cannot see outbox rows.
type Facts struct {
	Status   models.Status
	Assignee string // user id, "" when unassigned
	Events   map[models.EventType]int
	Outbox   int
}

// The people of every round's tenant: the assignee of the cas tasks, the pool of claimers
// (members of poolGroup) and a reader.
const (
	poolGroup = "stress-pool"
	ownerID   = "stress-owner"
)

// person is a worker of tenant in the pool group, with the permissions a worker holds.
func person(tenant, id string) models.Actor {
	return models.Actor{
		Tenant:      tenant,
		Subject:     models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id},
		DisplayName: id,
		Groups:      []models.ParticipantRef{{Tenant: tenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: poolGroup}},
		Permissions: []string{models.PermView, models.PermClaim, models.PermComplete},
	}
}

// manager reads every task of the tenant for the invariants.
func manager(tenant string) models.Actor { return managerNamed(tenant, "stress-manager") }

// watcher is the w-th live-stream subscriber: a manager, who sees every change of the tenant.
func watcher(tenant string, w int) models.Actor {
	return managerNamed(tenant, fmt.Sprintf("stress-watcher-%d", w))
}

func managerNamed(tenant, id string) models.Actor {
	a := person(tenant, id)
	a.Manager, a.Permissions, a.Groups = true, []string{"user-tasks:*"}, nil
	return a
}

// claimer is the w-th person of the pool.
func claimer(tenant string, w int) models.Actor { return person(tenant, fmt.Sprintf("stress-p%d", w)) }

// bookmark is the projection request of task i of a round: assigned to the owner, or offered
// to the pool group. Priorities and due dates vary so the inbox's filters and sorts have work.
func bookmark(tenant, kind string, i int, assigned bool) workflow.ProjectionRequest {
	prio := i % 5
	req := workflow.ProjectionRequest{
		BookmarkLink: workflow.BookmarkLink{WorkflowDefinitionID: "stress", WorkflowDefinitionName: "Stress",
			WorkflowInstanceID: fmt.Sprintf("%s-%s-%d", tenant, kind, i), ActivityInstanceID: "step",
			BookmarkID: fmt.Sprintf("bm-%s-%s-%d", tenant, kind, i)},
		Task: workflow.TaskDefinition{
			Title: fmt.Sprintf("Stress %s %d", kind, i), Reference: fmt.Sprintf("R-%d", i),
			Tags: []string{"stress", kind}, Priority: &prio,
		},
	}
	if assigned {
		req.Task.Assignee = &workflow.Participant{ID: ownerID}
	} else {
		req.Task.CandidateGroups = []workflow.Participant{{ID: poolGroup}}
	}
	return req
}

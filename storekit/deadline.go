package storekit

import (
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// DeadlineRow is a deadline as stored (user_task_deadlines on SQL, an entry of the aggregate's
// deadlines on the document store), keyed by (task_id, idx). actions_json holds the validated
// actions; state is pending until the due sweep settles it.
type DeadlineRow struct {
	TenantID    string     `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID      string     `gorm:"column:task_id;primaryKey" bson:"task_id"`
	Idx         int        `gorm:"column:idx;primaryKey;autoIncrement:false" bson:"idx"`
	Kind        string     `gorm:"column:kind" bson:"kind"`
	DueAt       time.Time  `gorm:"column:due_at" bson:"due_at"`
	ActionsJSON string     `gorm:"column:actions_json" bson:"actions_json"`
	State       string     `gorm:"column:state" bson:"state"`
	FiredAt     *time.Time `gorm:"column:fired_at" bson:"fired_at"`
	CreatedAt   time.Time  `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
}

// DeadlineRow encodes d as a row written at now.
func (c Codec) DeadlineRow(d *models.Deadline, now time.Time) (DeadlineRow, error) {
	raw, err := json.Marshal(d.Actions)
	if err != nil {
		return DeadlineRow{}, err
	}
	return DeadlineRow{
		TenantID: d.Tenant, TaskID: d.TaskID, Idx: d.Index, Kind: string(d.Kind), DueAt: c.Time(d.DueAt),
		ActionsJSON: string(raw), State: string(d.State), FiredAt: c.TimePtr(d.FiredAt), CreatedAt: c.Time(now),
	}, nil
}

// Deadline decodes a row; actions that do not decode, or an unknown kind or state, are corrupt.
func (c Codec) Deadline(r *DeadlineRow) (models.Deadline, error) {
	d := models.Deadline{
		Tenant: r.TenantID, TaskID: r.TaskID, Index: r.Idx, Kind: models.DeadlineKind(r.Kind),
		DueAt: r.DueAt.UTC(), State: models.DeadlineState(r.State), FiredAt: utcPtr(r.FiredAt),
	}
	corrupt := func(reason string) error {
		return &models.CorruptError{TaskID: r.TaskID, Reason: fmt.Sprintf("deadline %d: %s", r.Idx, reason)}
	}
	switch d.Kind {
	case models.DeadlineStart, models.DeadlineCompletion:
	default:
		return models.Deadline{}, corrupt("unknown kind " + r.Kind)
	}
	switch d.State {
	case models.DeadlinePending, models.DeadlineFired, models.DeadlineSkipped:
	default:
		return models.Deadline{}, corrupt("unknown state " + r.State)
	}
	if err := json.Unmarshal([]byte(r.ActionsJSON), &d.Actions); err != nil {
		return models.Deadline{}, corrupt("actions do not decode")
	}
	return d, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// EscalatedNotifications are the `escalated` rows a firing causes: one per recipient it names
// (storekit's rules: never a guest, an excluded user, a foreign tenant). A firing that keeps
// the revision shares it with earlier changes, so the rows are keyed by the firing's event
// sequence instead: unique per firing of the task, as the notification key requires.
func EscalatedNotifications(f *models.DeadlineFiring, now time.Time) []models.Notification {
	if f.Change == nil || f.Change.Event == nil {
		return nil
	}
	t := &f.Change.Task
	b := notificationBuilder{task: t, now: now, seen: map[string]bool{}}
	for _, r := range f.Escalated {
		if r.Tenant != "" && r.Tenant != t.Tenant {
			continue
		}
		b.addKeyed(models.TriggerEscalated, r, int64(f.Change.Event.Seq))
	}
	return b.out
}

package storekit

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"usertasks/migrations/logical"
	"usertasks/models"
)

// codecTask is a task with every field the row keeps set, its times finer than any store keeps.
func codecTask() models.Task {
	at := time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("CET", 3600))
	due, assigned := at.Add(time.Hour), at.Add(time.Minute)
	version := 3
	alice := &models.ParticipantRef{Tenant: "t1", Provider: "idp", Type: models.UserParticipant, ID: "alice", DisplayName: "Alice"}
	return models.Task{
		ID: "0190a000-0000-7000-8000-000000000001", Tenant: "t1",
		Workflow: models.WorkflowLink{DefinitionID: "def", DefinitionName: "Definition", DefinitionVersion: &version,
			InstanceID: "inst", InstanceReference: "INV-1", ActivityInstanceID: "act", BookmarkID: "bm"},
		MaterializationKey: "mk", Title: "Approve", Summary: "An invoice", Reference: "R-1", Tags: []string{"Urgent", "legal"},
		TaskType: "approval", Requester: alice, Priority: 70, DueAt: &due, IsOverdue: true,
		Status: models.StatusAssigned, CreatedAt: at, UpdatedAt: at, AssignedAt: &assigned,
		Assignee:         alice,
		Assignment:       models.Assignment{Mode: models.MembershipLive, AllowExclusionOverride: true},
		CandidateSummary: models.CandidateSummary{Users: 1, Groups: 2},
		Actions:          models.DefaultActions(), TimeoutEnabled: true, CancellationEnabled: true,
		Health:    models.Health{Severity: models.SeverityAdvisory, Code: "slow", Message: "a while"},
		Protected: models.Protected{Instructions: "secret steps", Data: json.RawMessage(`{"iban":"DE00"}`)},
		Revision:  2, LastEventSeq: 4,
	}
}

// TestCodecTaskRoundTrip encodes a task at each store's precision and decodes it back: the task
// returns as it was, its times in UTC and truncated to the precision, the protected parts only
// when asked for.
func TestCodecTaskRoundTrip(t *testing.T) {
	for _, precision := range []time.Duration{time.Microsecond, time.Millisecond} {
		t.Run(precision.String(), func(t *testing.T) {
			c := Codec{Sealer: testSealer(t), Precision: precision}
			task := codecTask()
			row, err := c.TaskRow(&task)
			if err != nil {
				t.Fatal(err)
			}
			if row.InstructionsEnc == nil || row.FormEnc != nil {
				t.Fatalf("sealed instructions %v, form %v: want the instructions only", row.InstructionsEnc, row.FormEnc)
			}
			got, err := c.Task(&row, models.ReadsAllProtected)
			if err != nil {
				t.Fatal(err)
			}
			want := task
			want.CreatedAt, want.UpdatedAt = c.Time(task.CreatedAt), c.Time(task.UpdatedAt)
			want.DueAt, want.AssignedAt = c.TimePtr(task.DueAt), c.TimePtr(task.AssignedAt)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded\n%+v\nwant\n%+v", got, want)
			}
			if got.CreatedAt.Nanosecond()%int(precision) != 0 || got.CreatedAt.Location() != time.UTC {
				t.Fatalf("created at %v: want UTC in whole %v", got.CreatedAt, precision)
			}
			safe, err := c.Task(&row, 0)
			if err != nil || safe.Protected.Instructions != "" {
				t.Fatalf("decoded without protected parts: %q, %v", safe.Protected.Instructions, err)
			}
		})
	}
}

// TestCodecNextTaskRowResealsOnlyChanges changes a task's data and its creation keys: only the
// data is sealed again, every other envelope and the creation keys stay as stored.
func TestCodecNextTaskRowResealsOnlyChanges(t *testing.T) {
	c := Codec{Sealer: testSealer(t), Precision: time.Microsecond}
	before := codecTask()
	cur, err := c.TaskRow(&before)
	if err != nil {
		t.Fatal(err)
	}
	after := before
	after.Protected.Data = json.RawMessage(`{"iban":"DE01"}`)
	after.MaterializationKey, after.Priority = "moved", 10
	next, resealed, err := c.NextTaskRow(&cur, &before, &after)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{ColTaskData}; !reflect.DeepEqual(resealed, want) {
		t.Fatalf("resealed %v, want %v", resealed, want)
	}
	if next.InstructionsEnc != cur.InstructionsEnc || next.TaskDataEnc == cur.TaskDataEnc {
		t.Fatal("want the instructions' envelope kept and the data's replaced")
	}
	if next.MaterializationKey != "mk" || next.Priority != 10 {
		t.Fatalf("key %q, priority %d: want the stored key and the new priority", next.MaterializationKey, next.Priority)
	}
}

// TestCodecCorruptRow decodes rows no store writes: each is a CorruptError naming the task.
func TestCodecCorruptRow(t *testing.T) {
	c := Codec{Precision: time.Millisecond}
	task := codecTask()
	good, err := c.SafeTaskRow(&task)
	if err != nil {
		t.Fatal(err)
	}
	bad := "{"
	for name, spoil := range map[string]func(r *TaskRow){
		"UnknownStatus": func(r *TaskRow) { r.Status = "lost" },
		"NoRevision":    func(r *TaskRow) { r.Revision = 0 },
		"Tags":          func(r *TaskRow) { r.Tags = &bad },
		"Actions":       func(r *TaskRow) { r.ActionsJSON = bad },
	} {
		t.Run(name, func(t *testing.T) {
			row := good
			spoil(&row)
			var ce *models.CorruptError
			if _, err := c.Task(&row, 0); !errors.As(err, &ce) || ce.TaskID != task.ID {
				t.Fatalf("error %v, want a CorruptError naming %s", err, task.ID)
			}
		})
	}
}

// TestCodecChildRows encodes a task's tags, candidates and exclusions: each once, in the task's
// order, and the candidates and exclusions decode back.
func TestCodecChildRows(t *testing.T) {
	task := codecTask()
	task.Tags = []string{"Urgent", "urgent ", "", "legal"}
	ann := models.ParticipantRef{Tenant: "t1", Provider: "idp", Type: models.UserParticipant, ID: "ann"}
	ops := &models.ParticipantRef{Tenant: "t1", Provider: "idp", Type: models.GroupParticipant, ID: "ops"}
	direct := models.Candidate{Participant: ann, Source: models.SourceDirectUser}
	member := models.Candidate{Participant: ann, Source: models.SourceSnapshotMember, SourceGroup: ops}
	task.Assignment.Candidates = []models.Candidate{direct, member, direct}
	task.Assignment.Exclusions = []models.ParticipantRef{ann, ann}

	if got, want := TagKeys(&task), []string{"urgent", "legal"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("tags %v, want %v", got, want)
	}
	rows := CandidateRows(&task)
	if len(rows) != 2 || rows[0].SourceKey != "-" || rows[1].SourceKey == "-" {
		t.Fatalf("candidate rows %+v: want the direct one, then the member with its group's key", rows)
	}
	for i, want := range []models.Candidate{direct, member} {
		if got := rows[i].Candidate("t1"); !reflect.DeepEqual(got, want) {
			t.Fatalf("candidate %d decodes to %+v, want %+v", i, got, want)
		}
	}
	excl := ExclusionRows(&task)
	if len(excl) != 1 || excl[0].Participant("t1") != ann {
		t.Fatalf("exclusion rows %+v, want ann once", excl)
	}
}

// TestRowsFollowTheLogicalSchema names every row's columns as migrations/logical does, in its
// order, under both tags (the document names id _id).
func TestRowsFollowTheLogicalSchema(t *testing.T) {
	tables := map[string][]string{}
	for _, tb := range logical.Schema() {
		for _, c := range tb.Columns {
			tables[tb.Name] = append(tables[tb.Name], c.Name)
		}
	}
	for _, c := range []struct {
		row         any
		table       string
		first, last int // the row's columns are the table's [first, last)
	}{
		{TaskRow{}, "user_tasks", 0, len(tables["user_tasks"])},
		{EventRow{}, "user_task_events", 0, len(tables["user_task_events"])},
		{OperationRow{}, "user_task_operations", 0, len(tables["user_task_operations"])},
		{ResumptionRow{}, "user_task_resumptions", 0, len(tables["user_task_resumptions"])},
		{CandidateRow{}, "user_task_candidates", 3, 11},
		{ParticipantRow{}, "user_task_exclusions", 3, 7},
		{NotificationRow{}, "user_task_notifications", 0, len(tables["user_task_notifications"])},
		{PersonRow{}, "user_task_people", 0, len(tables["user_task_people"])},
		{AbsenceRow{}, "user_task_absences", 0, len(tables["user_task_absences"])},
		{DeadlinePolicyRow{}, "user_task_deadline_policies", 0, len(tables["user_task_deadline_policies"])},
		{DeadlinePolicyAuditRow{}, "user_task_policy_audit", 0, len(tables["user_task_policy_audit"])},
	} {
		t.Run(c.table, func(t *testing.T) {
			columns, fields := rowNames(reflect.TypeOf(c.row))
			want := tables[c.table][c.first:c.last]
			if !reflect.DeepEqual(columns, want) {
				t.Fatalf("columns %v, want %v", columns, want)
			}
			if want[0] == "id" {
				want = append([]string{"_id"}, want[1:]...)
			}
			if !reflect.DeepEqual(fields, want) {
				t.Fatalf("fields %v, want %v", fields, want)
			}
		})
	}
}

// rowNames are the gorm columns and bson fields of a row type, embedded rows inline.
func rowNames(typ reflect.Type) (columns, fields []string) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Anonymous {
			c, d := rowNames(f.Type)
			columns, fields = append(columns, c...), append(fields, d...)
			continue
		}
		columns, fields = append(columns, GormColumn(f)), append(fields, f.Tag.Get("bson"))
	}
	return columns, fields
}

// TestSafeTaskColumnsLeaveOutSealedAndSearch lists every column of a task row but the sealed
// ones and the search text.
func TestSafeTaskColumnsLeaveOutSealedAndSearch(t *testing.T) {
	columns, _ := rowNames(reflect.TypeFor[TaskRow]())
	if got, want := len(SafeTaskColumns), len(columns)-len(ProtectedColumns)-1; got != want || len(SafeTaskFields) != want {
		t.Fatalf("%d columns, %d fields, want %d", got, len(SafeTaskFields), want)
	}
	for _, col := range SafeTaskColumns {
		if col == "search_text" || col == ColInstructions || col == ColCompletionData {
			t.Fatalf("%s is listed", col)
		}
	}
	if SafeTaskColumns[0] != "id" || SafeTaskFields[0] != "_id" {
		t.Fatalf("first %q and %q, want id and _id", SafeTaskColumns[0], SafeTaskFields[0])
	}
}

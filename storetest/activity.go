package storetest

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
)

// The activity count cases (store.Activity, issue 29 item 4): what an inbox row tells of a
// task's comments and files, read for one page of rows at once.

func testActivityCounts(t *testing.T, h Harness) {
	ann := queryActor("t1", "ann", false)
	annRef := User("t1", "ann")

	t.Run("CountsCommentsAndFinishedFiles", func(t *testing.T) {
		s := h.open(t, Options{})
		busy := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		filesOnly := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		quiet := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		deletedOnly := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		for _, text := range []string{"one", "two", "three"} {
			comment(t, s, busy, ann, text)
		}
		gone := comment(t, s, busy, ann, "deleted: not counted")
		if _, err := s.DeleteComment(ctx(t), "t1", busy.ID, gone.ID, commentDelete(ann)); err != nil {
			t.Fatal(err)
		}
		mustUpload(t, s, busy, annRef, "invoice.pdf", patterned(10))
		mustUpload(t, s, filesOnly, annRef, "a.pdf", patterned(3))
		mustUpload(t, s, filesOnly, annRef, "b.pdf", patterned(models.AttachmentChunkSize+1))
		removed := mustUpload(t, s, filesOnly, annRef, "removed.pdf", patterned(3))
		if _, err := s.DeleteAttachment(ctx(t), ann, filesOnly.ID, removed.ID); err != nil {
			t.Fatal(err)
		}
		// An upload under way (begun, a chunk stored, not finished) is not a file yet.
		pending, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: quiet.ID, FileName: "pending.pdf", UploadedBy: annRef})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.PutAttachmentChunk(ctx(t), "t1", quiet.ID, pending.ID, 0, patterned(5)); err != nil {
			t.Fatal(err)
		}
		d := comment(t, s, deletedOnly, ann, "soon deleted")
		if _, err := s.DeleteComment(ctx(t), "t1", deletedOnly.ID, d.ID, commentDelete(ann)); err != nil {
			t.Fatal(err)
		}

		got, err := s.ActivityCounts(ctx(t), "t1", []string{quiet.ID, busy.ID, filesOnly.ID, deletedOnly.ID, busy.ID})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]models.ActivityCount{
			busy.ID:      {Comments: 3, Attachments: 1},
			filesOnly.ID: {Attachments: 2},
		}
		if !maps.Equal(got, want) {
			t.Fatalf("counts %+v, want %+v", got, want)
		}
	})

	t.Run("OtherTenantAndUnknownIdsGiveNothing", func(t *testing.T) {
		s := h.open(t, Options{})
		mine := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		theirs := CreateTask(t, s, TaskOpts{Tenant: "t2", CandidateUsers: []string{"ann"}})
		comment(t, s, mine, ann, "mine")
		comment(t, s, theirs, queryActor("t2", "ann", false), "theirs")
		mustUpload(t, s, theirs, User("t2", "ann"), "theirs.pdf", patterned(4))

		ids := []string{theirs.ID, strings.ToUpper(mine.ID), mine.ID + "/?#", "../" + mine.ID, "ünï côdé", "%", "_", "'; DROP TABLE user_tasks; --", mine.ID}
		got, err := s.ActivityCounts(ctx(t), "t1", ids)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]models.ActivityCount{mine.ID: {Comments: 1}}; !maps.Equal(got, want) {
			t.Fatalf("counts %+v, want %+v: another tenant's task or an id that is not one was counted", got, want)
		}
		// The other tenant's counts exist: they are only not t1's.
		got, err = s.ActivityCounts(ctx(t), "t2", []string{theirs.ID, mine.ID})
		if want := map[string]models.ActivityCount{theirs.ID: {Comments: 1, Attachments: 1}}; err != nil || !maps.Equal(got, want) {
			t.Fatalf("t2 counts %+v, %v, want %+v", got, err, want)
		}
	})

	t.Run("EmptyInputReadsNothing", func(t *testing.T) {
		s := h.open(t, Options{})
		for _, ids := range [][]string{nil, {}, {""}} {
			got, err := s.ActivityCounts(ctx(t), "t1", ids)
			if err != nil || got == nil || len(got) != 0 {
				t.Fatalf("%q: %+v, %v, want an empty map", ids, got, err)
			}
		}
	})

	t.Run("ErrMoreThanAPage", func(t *testing.T) {
		s := h.open(t, Options{})
		ids := make([]string, models.MaxActivityCountTasks+1)
		for i := range ids {
			ids[i] = models.NewID()
		}
		_, err := s.ActivityCounts(ctx(t), "t1", ids)
		var ve *models.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != "taskIds" {
			t.Fatalf("%d ids: %v, want a validation error naming taskIds", len(ids), err)
		}
		if _, err := s.ActivityCounts(ctx(t), "t1", ids[:models.MaxActivityCountTasks]); err != nil {
			t.Fatalf("a full page of ids: %v", err)
		}
	})

	t.Run("PlansReadTheTaskIndexes", func(t *testing.T) { testActivityPlans(t, h) })
}

// testActivityPlans pins the two reads to the task-leading indexes on SQLite, whose planner
// takes a usable index whatever the table's size (PostgreSQL and MariaDB rightly read tables
// this small sequentially; at scale the (tenant_id, task_id) prefix is the same range).
func testActivityPlans(t *testing.T, h Harness) {
	h.needSQL(t, "the case explains the SQL statements the store ran")
	if h.SQL.Dialect != migrations.SQLite {
		h.notApplicable(t, "only SQLite's planner picks an index for tables of a test's size")
	}
	rec := &queryRecorder{}
	s := h.open(t, Options{OnSQL: rec.record})
	var ids []string
	for i := range 40 {
		tenant := []string{"p1", "p2"}[i%2]
		task := CreateTask(t, s, TaskOpts{Tenant: tenant, CandidateUsers: []string{"ann"}})
		a := queryActor(tenant, "ann", false)
		comment(t, s, task, a, "one")
		comment(t, s, task, a, "two")
		mustUpload(t, s, task, User(tenant, "ann"), "f.pdf", patterned(2))
		if tenant == "p1" {
			ids = append(ids, task.ID)
		}
	}
	h.SQL.Analyze(t, s)
	rec.reset()
	got, err := s.ActivityCounts(ctx(t), "p1", ids)
	if err != nil || len(got) != len(ids) {
		t.Fatalf("%d counts, %v, want %d", len(got), err, len(ids))
	}
	checkActivityPlan(t, h, s, rec, "user_task_comments", "ix_comments_list")
	checkActivityPlan(t, h, s, rec, "user_task_attachments", "ix_attachments_task")
}

// checkActivityPlan explains the one recorded SELECT of table: it reads index, never the table.
func checkActivityPlan(t *testing.T, h Harness, s store.Store, rec *queryRecorder, table, index string) {
	t.Helper()
	var stmts []string
	for _, stmt := range rec.statements() {
		up := strings.ToUpper(strings.TrimSpace(stmt))
		if strings.HasPrefix(up, "SELECT") && strings.Contains(up, strings.ToUpper(table)) {
			stmts = append(stmts, stmt)
		}
	}
	if len(stmts) != 1 {
		t.Fatalf("%d SELECTs of %s recorded, want 1 for the whole page: %q", len(stmts), table, stmts)
	}
	plan := h.SQL.Explain(t, s, stmts[0])
	if !strings.Contains(plan, index) {
		t.Errorf("%s: the plan does not read %s\nstatement:\n%s\nplan:\n%s", h.Name, index, stmts[0], plan)
	}
	if scan := planTableScan(h.SQL.Dialect, plan, table); scan != "" {
		t.Errorf("%s: the plan scans all of %s (%s)\nstatement:\n%s\nplan:\n%s", h.Name, table, scan, stmts[0], plan)
	}
}

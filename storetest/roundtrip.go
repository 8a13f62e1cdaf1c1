package storetest

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"usertasks/models"
)

func testRoundTrip(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	due := time.Date(2031, 5, 6, 7, 8, 9, 123456000, time.UTC)
	prio := 73
	version := 4
	created := CreateTask(t, s, TaskOpts{
		Title: "Approve invoice 17", Summary: "Q3 supplies", Reference: "INV-17", TaskType: "approval",
		Tags: []string{"finance", "urgent"}, CandidateUsers: []string{"ann", "bob"}, CandidateGroups: []string{"accounting"},
		SnapshotMembers: map[string][]string{"auditors": {"cy"}}, Excluded: []string{"dan"},
		Priority: &prio, DueAt: &due, Instructions: "Check the **totals**.", Data: `{"amount":1250.5,"vendor":"ACME"}`,
		Timeout: true, Cancellation: true, Health: models.Health{Severity: models.SeverityAdvisory, Code: models.HealthNoParticipants, Message: "none"},
	})
	created.Workflow.DefinitionVersion = &version // not set by the fixture; proves the nil round trip below

	t.Run("OK", func(t *testing.T) {
		h.differs(t)
		got, err := s.Get(ctx(t), "t1", created.ID)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		want := created
		want.Workflow.DefinitionVersion = nil
		normalize(&got)
		normalize(&want)
		if !reflect.DeepEqual(got, want) {
			gj, _ := json.MarshalIndent(got, "", " ")
			wj, _ := json.MarshalIndent(want, "", " ")
			t.Fatalf("round trip differs\ngot  %s\nwant %s", gj, wj)
		}
		if got.Protected.Instructions != "Check the **totals**." || string(got.Protected.Data) != `{"amount":1250.5,"vendor":"ACME"}` {
			t.Fatalf("protected content = %q / %s", got.Protected.Instructions, got.Protected.Data)
		}
		if !got.DueAt.Equal(due) || got.DueAt.Location() != time.UTC {
			t.Fatalf("dueAt = %v, want %v in UTC with microseconds", got.DueAt, due)
		}
		if got.CreatedAt.IsZero() || got.CreatedAt.Location() != time.UTC {
			t.Fatalf("createdAt = %v, want the database clock in UTC", got.CreatedAt)
		}
	})
	t.Run("FindByMaterializationKey", func(t *testing.T) {
		got, err := s.FindByMaterializationKey(ctx(t), "t1", created.MaterializationKey)
		if err != nil || got.ID != created.ID {
			t.Fatalf("got %s, %v; want %s", got.ID, err, created.ID)
		}
	})
	t.Run("FindByBookmarkID", func(t *testing.T) {
		got, err := s.FindByBookmarkID(ctx(t), "t1", created.Workflow.BookmarkID)
		if err != nil || got.ID != created.ID {
			t.Fatalf("got %s, %v; want %s", got.ID, err, created.ID)
		}
	})
	t.Run("ErrNotFoundOtherTenant", func(t *testing.T) {
		if _, err := s.Get(ctx(t), "t2", created.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("get from t2: %v, want ErrNotFound", err)
		}
		if _, err := s.FindByBookmarkID(ctx(t), "t2", created.Workflow.BookmarkID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("find by bookmark from t2: %v, want ErrNotFound", err)
		}
		if _, err := s.FindByMaterializationKey(ctx(t), "t2", created.MaterializationKey); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("find by key from t2: %v, want ErrNotFound", err)
		}
	})
	t.Run("ErrNotFoundMissing", func(t *testing.T) {
		if _, err := s.Get(ctx(t), "t1", models.NewID()); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
	})
	t.Run("DatabaseClock", func(t *testing.T) {
		now, err := s.Now(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(now); d > time.Minute || d < -time.Minute {
			t.Fatalf("database clock %v is %v away from this machine's", now, d)
		}
		if now.Location() != time.UTC || now.Nanosecond()%1000 != 0 {
			t.Fatalf("clock %v: want UTC truncated to microseconds", now)
		}
	})
}

// normalize sorts the parts whose order the store does not promise.
func normalize(t *models.Task) {
	sortCandidates(t.Assignment.Candidates)
	sortRefs(t.Assignment.Exclusions)
	if len(t.Protected.Data) == 0 {
		t.Protected.Data = nil
	}
	if len(t.Protected.CompletionData) == 0 {
		t.Protected.CompletionData = nil
	}
}

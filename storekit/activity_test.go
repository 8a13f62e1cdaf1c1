package storekit

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"usertasks/models"
)

func TestActivityTaskIDs(t *testing.T) {
	t.Run("DedupedInOrder", func(t *testing.T) {
		got, err := ActivityTaskIDs([]string{"b", "a", "", "b", "a/?#", "a"})
		if err != nil || !slices.Equal(got, []string{"b", "a", "a/?#"}) {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("OnePageAllowed", func(t *testing.T) {
		ids := make([]string, models.MaxActivityCountTasks)
		for i := range ids {
			ids[i] = strconv.Itoa(i)
		}
		if got, err := ActivityTaskIDs(ids); err != nil || len(got) != len(ids) {
			t.Fatalf("%d ids: %d, %v", len(ids), len(got), err)
		}
	})
	t.Run("ErrMoreThanAPage", func(t *testing.T) {
		_, err := ActivityTaskIDs(make([]string, models.MaxActivityCountTasks+1))
		var ve *models.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != "taskIds" {
			t.Fatalf("err = %v, want a validation error naming taskIds", err)
		}
	})
}

func TestAddActivity(t *testing.T) {
	m := map[string]models.ActivityCount{}
	AddActivity(m, "t1", 3, false)
	AddActivity(m, "t1", 1, true)
	AddActivity(m, "t2", 0, true)
	if len(m) != 1 || m["t1"] != (models.ActivityCount{Comments: 3, Attachments: 1}) {
		t.Fatalf("counts %+v", m)
	}
}

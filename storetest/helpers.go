package storetest

import (
	"errors"
	"sort"
	"testing"

	"usertasks/models"
	"usertasks/store"
)

func sortCandidates(cs []models.Candidate) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Participant.Key() < b.Participant.Key()
	})
}

func sortRefs(rs []models.ParticipantRef) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Key() < rs[j].Key() })
}

func mustGet(t *testing.T, s store.Store, tenant, id string) models.Task {
	t.Helper()
	task, err := s.Get(ctx(t), tenant, id)
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	return task
}

func mustEvents(t *testing.T, s store.Store, tenant, id string) []models.Event {
	t.Helper()
	evs, err := s.Events(ctx(t), tenant, id, 0, models.MaxPageSize)
	if err != nil {
		t.Fatalf("events %s: %v", id, err)
	}
	return evs
}

func wantCode(t *testing.T, err error, code models.Code) {
	t.Helper()
	if got := models.ErrorCode(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
}

func wantIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

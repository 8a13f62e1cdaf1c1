package storetest

import (
	"strings"
	"testing"

	"usertasks/models"
)

// testQueryAssignee checks the assignee filter: one assignee's tasks (provider, type and id
// all matching) or unassigned ones, on every scope, never widening what the scope authorizes.
func testQueryAssignee(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	boss := queryActor("t1", "boss", true)
	me := User("t1", "me")
	ann := User("t1", "ann")
	annLDAP := models.ParticipantRef{Tenant: "t1", Provider: "ldap", Type: models.UserParticipant, ID: "ann"}
	odd := User("t1", "a/b?c#d ü")
	names := map[string]string{}
	for name, o := range map[string]TaskOpts{
		"mine":       {Assignee: &me},
		"anns":       {Assignee: &ann},
		"anns2":      {Assignee: &ann, Priority: queryInt(90)},
		"annsLDAP":   {Assignee: &annLDAP},
		"odd":        {Assignee: &odd},
		"unassigned": {CandidateUsers: []string{"me"}},
		"done":       {Assignee: &ann, Status: models.StatusCompleted, CompletedBy: &ann},
	} {
		names[CreateTask(t, s, o).ID] = name
	}
	other := User("t2", "ann")
	CreateTask(t, s, TaskOpts{Tenant: "t2", Assignee: &other})

	user := func(p models.ParticipantRef) models.AssigneeFilter { return models.AssigneeFilter{Participant: p} }
	cases := []struct {
		name  string
		scope models.Scope
		actor models.Actor
		a     models.AssigneeFilter
		want  []string
	}{
		{"AllOneAssignee", models.ScopeAll, boss, user(ann), []string{"anns", "anns2", "done"}},
		{"AllOtherProvider", models.ScopeAll, boss, user(annLDAP), []string{"annsLDAP"}},
		{"AllHostileID", models.ScopeAll, boss, user(odd), []string{"odd"}},
		{"AllGroupIsNotUser", models.ScopeAll, boss, user(Group("t1", "ann")), nil},
		{"AllUnassigned", models.ScopeAll, boss, models.AssigneeFilter{Unassigned: true}, []string{"unassigned"}},
		{"AssignedToMeFilteredToMe", models.ScopeAssigned, queryActor("t1", "me", false), user(me), []string{"mine"}},
		{"AssignedToMeCannotWiden", models.ScopeAssigned, queryActor("t1", "me", false), user(ann), nil},
		{"AvailableUnassigned", models.ScopeAvailable, queryActor("t1", "me", false), models.AssigneeFilter{Unassigned: true}, []string{"unassigned"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := models.TaskFilter{Tenant: "t1", Scope: c.scope, Actor: c.actor, Assignee: c.a, Limit: 1, IncludeTotal: true}
			got := queryNames(queryPages(t, s, f), names)
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			page, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == nil || *page.Total != len(c.want) {
				t.Fatalf("total %v, want %d", page.Total, len(c.want))
			}
		})
	}
	t.Run("ControlCharacterIsInvalid", func(t *testing.T) {
		_, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss,
			Assignee: user(User("t1", "ann\x00"))})
		wantCode(t, err, models.CodeValidationFailed)
	})
}

// testQueryCursorFilters checks that a cursor is bound to the filters of the list it came
// from: reused with another filter (health, assignee, or any other), it is refused as a
// malformed request; with the same filters and another page size, it goes on.
func testQueryCursorFilters(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	boss := queryActor("t1", "boss", true)
	ann := User("t1", "ann")
	for i := 0; i < 3; i++ {
		CreateTask(t, s, TaskOpts{Assignee: &ann, Health: models.Health{Severity: models.SeverityAdvisory,
			Code: models.HealthNoParticipants, Message: "finding"}})
	}
	base := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Limit: 1,
		HealthCodes: []string{models.HealthNoParticipants}, HealthSeverity: models.SeverityAdvisory,
		Assignee: models.AssigneeFilter{Participant: ann}}
	first, err := s.Query(ctx(t), base)
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %v, next %q", err, first.NextCursor)
	}
	t.Run("SameFiltersGoOn", func(t *testing.T) {
		f := base
		f.Cursor, f.Limit, f.HealthCodes = first.NextCursor, 5, []string{models.HealthNoParticipants, models.HealthNoParticipants}
		page, err := s.Query(ctx(t), f)
		if err != nil || len(page.Items) != 2 {
			t.Fatalf("next page: %v, %d items", err, len(page.Items))
		}
	})
	for name, change := range map[string]func(*models.TaskFilter){
		"HealthCode":     func(f *models.TaskFilter) { f.HealthCodes = []string{models.HealthFormResolutionFailed} },
		"NoHealthCode":   func(f *models.TaskFilter) { f.HealthCodes = nil },
		"HealthSeverity": func(f *models.TaskFilter) { f.HealthSeverity = models.SeverityBlocking },
		"Assignee":       func(f *models.TaskFilter) { f.Assignee = models.AssigneeFilter{Unassigned: true} },
		"Scope":          func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention },
		"Search":         func(f *models.TaskFilter) { f.Search = "x" },
	} {
		t.Run("ErrMalformed_"+name, func(t *testing.T) {
			f := base
			f.Cursor = first.NextCursor
			change(&f)
			_, err := s.Query(ctx(t), f)
			wantCode(t, err, models.CodeMalformedRequest)
		})
	}
}

package repository

import (
	"sort"
	"strings"

	"usertasks/models"
	"usertasks/storekit"
)

// standInMatch is the part of candidateCond that lists a substitute's share of the available
// scope (SPEC 10.5): a direct-user candidate row naming an absent user the actor stands in for
// (storekit.ActorStandIns), that user not excluded from the task. The ids are bound as IN lists
// per provider, as the actor's groups are, so ix_candidates_lookup seeks each one.
func standInMatch(f models.TaskFilter) (string, []any, bool) {
	byProvider := storekit.ActorStandIns(f)
	if len(byProvider) == 0 {
		return "", nil, false
	}
	providers := make([]string, 0, len(byProvider))
	for p := range byProvider {
		providers = append(providers, p)
	}
	sort.Strings(providers)
	var users []string
	var args []any
	args = append(args, string(models.SourceDirectUser), string(models.UserParticipant))
	for _, p := range providers {
		users = append(users, "(c.provider = ? AND c.participant_id IN ?)")
		args = append(args, p, byProvider[p]) // at most models.MaxStandsInFor ids, under maxInList
	}
	sql := "(c.source = ? AND c.participant_type = ? AND (" + strings.Join(users, " OR ") + ")" +
		" AND NOT EXISTS (SELECT 1 FROM user_task_exclusions sx WHERE sx.tenant_id = c.tenant_id AND sx.task_id = c.task_id" +
		" AND sx.provider = c.provider AND sx.participant_type = c.participant_type AND sx.participant_id = c.participant_id))"
	return sql, args, true
}

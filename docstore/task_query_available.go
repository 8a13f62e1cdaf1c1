package docstore

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

// The available scope asks for an embedded candidate whose fields all match (source, provider,
// type and id of one entry) and for no embedded exclusion naming the actor. FerretDB 1.24 runs
// $elemMatch with operators only ("unknown operator: source" for field conditions), so the
// filter narrows with dotted fields, which ix_candidates_lookup (tenant_id, candidates.provider,
// candidates.participant_type, candidates.participant_id, status, candidates.source) serves and which match every
// eligible task and a few more (fields matched on different entries), and eligible decides on
// the entries themselves. Pages, totals and workflow choices of the scope walk on until enough
// aggregates passed (page, cappedTotal, WorkflowChoices), so paging stays exact.

// availableConds is the dotted-field narrowing of the available scope.
func availableConds(f models.TaskFilter) bson.D {
	me := f.Actor.Subject
	conds := []bson.D{{{Key: "candidates.provider", Value: me.Provider},
		{Key: "candidates.participant_type", Value: string(me.Type)}, {Key: "candidates.participant_id", Value: me.ID}}}
	groups := storekit.ActorGroups(f)
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range groups {
			if !yield(p) {
				return
			}
		}
	}) {
		conds = append(conds, bson.D{{Key: "membership_mode", Value: string(models.MembershipLive)},
			{Key: "candidates.provider", Value: p}, {Key: "candidates.participant_type", Value: string(models.GroupParticipant)},
			{Key: "candidates.participant_id", Value: bson.D{{Key: "$in", Value: slices.Sorted(slices.Values(groups[p]))}}}})
	}
	conds = append(conds, standInConds(f)...) // task_query_substitute.go
	if len(conds) == 1 {
		return conds[0]
	}
	return anyOf(conds...)
}

// eligible is the exact test of the available scope on an aggregate read with its candidates
// and exclusions: a direct-user or snapshot-member entry naming the subject, or, in live
// membership mode only, a direct-group entry naming one of the actor's groups; and no
// exclusion naming the subject.
func eligible(f models.TaskFilter) func(d *taskDoc) bool {
	me := f.Actor.Subject
	groups := map[[2]string]bool{}
	for p, ids := range storekit.ActorGroups(f) {
		for _, id := range ids {
			groups[[2]string{p, id}] = true
		}
	}
	standsIn := standInCheck(f) // task_query_substitute.go
	return func(d *taskDoc) bool {
		for _, x := range d.Exclusions {
			if x.Provider == me.Provider && x.ParticipantType == string(me.Type) && x.ParticipantID == me.ID {
				return false
			}
		}
		for _, c := range d.Candidates {
			switch {
			case (c.Source == string(models.SourceDirectUser) || c.Source == string(models.SourceSnapshotMember)) &&
				c.Provider == me.Provider && c.ParticipantType == string(me.Type) && c.ParticipantID == me.ID:
				return true
			case d.MembershipMode == string(models.MembershipLive) && c.Source == string(models.SourceDirectGroup) &&
				c.ParticipantType == string(models.GroupParticipant) && groups[[2]string{c.Provider, c.ParticipantID}]:
				return true
			}
		}
		return standsIn(d)
	}
}

// checkFields are what eligible reads beside a projection.
var checkFields = bson.D{{Key: "candidates", Value: 1}, {Key: "exclusions", Value: 1}}

package docstore

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
)

// standInConds narrow the available scope to a substitute's share too (SPEC 10.5): an entry
// naming an absent user the actor stands in for (storekit.ActorStandIns), one condition per
// provider, which ix_candidates_lookup serves as it serves the actor's own id.
func standInConds(f models.TaskFilter) []bson.D {
	byProvider := storekit.ActorStandIns(f)
	var conds []bson.D
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range byProvider {
			if !yield(p) {
				return
			}
		}
	}) {
		conds = append(conds, bson.D{{Key: "candidates.provider", Value: p},
			{Key: "candidates.participant_type", Value: string(models.UserParticipant)},
			{Key: "candidates.participant_id", Value: bson.D{{Key: "$in", Value: byProvider[p]}}}})
	}
	return conds
}

// standInCheck is the exact test of that share on an aggregate: a direct-user entry naming an
// absent user the actor stands in for, that user not excluded. The actor's own exclusion is
// eligible's check, before.
func standInCheck(f models.TaskFilter) func(d *taskDoc) bool {
	absent := map[[2]string]bool{}
	for p, ids := range storekit.ActorStandIns(f) {
		for _, id := range ids {
			absent[[2]string{p, id}] = true
		}
	}
	return func(d *taskDoc) bool {
		if len(absent) == 0 {
			return false
		}
		for _, c := range d.Candidates {
			if c.Source != string(models.SourceDirectUser) || c.ParticipantType != string(models.UserParticipant) || !absent[[2]string{c.Provider, c.ParticipantID}] {
				continue
			}
			excluded := slices.ContainsFunc(d.Exclusions, func(x exclusionDoc) bool {
				return x.Provider == c.Provider && x.ParticipantType == c.ParticipantType && x.ParticipantID == c.ParticipantID
			})
			if !excluded {
				return true
			}
		}
		return false
	}
}

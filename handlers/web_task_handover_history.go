package handlers

import (
	"encoding/json"

	"usertasks/models"
)

// handoverMeta is what delegated, returned, assigned and claimed events record about a hand-over
// (models.Delegate, Return, Substitute): the delegate or assignee, and the absent user a
// substitute stood in for.
type handoverMeta struct {
	To            *participantRequest `json:"to"`
	Assignee      *participantRequest `json:"assignee"`
	SubstituteFor *participantRequest `json:"substituteFor"`
}

// readHandover reads e's hand-over metadata; false for other events and unreadable metadata.
func readHandover(e models.Event) (handoverMeta, bool) {
	var md handoverMeta
	switch e.Type {
	case models.EventDelegated, models.EventReturned, models.EventAssigned, models.EventClaimed:
	default:
		return md, false
	}
	if len(e.Metadata) == 0 || json.Unmarshal(e.Metadata, &md) != nil {
		return md, false
	}
	return md, true
}

// eventRef is a participant of e's metadata; false when it names nobody.
func eventRef(e models.Event, p *participantRequest) (models.ParticipantRef, bool) {
	if p == nil || p.ID == "" {
		return models.ParticipantRef{}, false
	}
	typ := p.Type
	if typ == "" {
		typ = models.UserParticipant
	}
	return models.ParticipantRef{Tenant: e.Tenant, Provider: p.Provider, Type: typ, ID: p.ID, DisplayName: p.DisplayName}, true
}

// handoverRefs are the participants a hand-over event names, for the page's one name lookup.
func handoverRefs(e models.Event) []models.ParticipantRef {
	md, ok := readHandover(e)
	if !ok {
		return nil
	}
	var refs []models.ParticipantRef
	for _, p := range []*participantRequest{md.To, md.Assignee, md.SubstituteFor} {
		if r, ok := eventRef(e, p); ok {
			refs = append(refs, r)
		}
	}
	return refs
}

// handoverSummary is the History line of a hand-over: "Delegated to Bob by Ann", "Returned to
// Ann by Bob", and the substitutions: "Assigned to Sam (standing in for Ann) by Max", "Claimed
// by Sam on behalf of Ann". "" for any other event, which says itself in other words.
func (n namer) handoverSummary(e models.Event) string {
	md, ok := readHandover(e)
	if !ok {
		return ""
	}
	d := n.t.Delegation
	actor := n.t.SystemActor
	if e.Actor != nil {
		actor = n.label(*e.Actor)
	}
	to, hasTo := eventRef(e, md.To)
	absent, standsIn := eventRef(e, md.SubstituteFor)
	switch e.Type {
	case models.EventDelegated:
		switch {
		case hasTo && standsIn:
			return n.t.Format(d.HistoryDelegatedFor, n.label(to), n.label(absent), actor)
		case hasTo:
			return n.t.Format(d.HistoryDelegated, n.label(to), actor)
		}
	case models.EventReturned:
		if hasTo {
			return n.t.Format(d.HistoryReturned, n.label(to), actor)
		}
	case models.EventAssigned:
		if assignee, ok := eventRef(e, md.Assignee); ok && standsIn {
			return n.t.Format(d.HistoryAssignedFor, n.label(assignee), n.label(absent), actor)
		}
	case models.EventClaimed:
		if standsIn {
			return n.t.Format(d.HistoryClaimedFor, actor, n.label(absent))
		}
	}
	return ""
}

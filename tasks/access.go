package tasks

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"usertasks/models"
)

// AccessInput names the participant of an access explanation: `<type>:<id>` and an optional
// provider (the default provider when empty).
type AccessInput struct {
	Participant string
	Provider    string
	// Unrecorded answers without the access-explained event: the web page's GET, which a link
	// on another site can make a signed-in manager's browser send, must change nothing.
	Unrecorded bool
}

// maxAccessGroupLookups bounds the directory calls of one explanation: the task's first candidate
// groups are looked up, the rest are reported as not checked.
const maxAccessGroupLookups = 20

// Access explains why a participant can or cannot view, claim and complete a task (SPEC 5.1).
// Managers only: 403 before anything is loaded; a task the manager may not see is 404; a
// malformed participant 422. Every answer is audited with an access-explained event (no
// revision bump) unless in.Unrecorded; the explanation is of the task as loaded, candidate rows included (the
// event's append loads the task row alone).
//
// What is known of the participant (docs/product.md, "Access explanation"): the caller's own
// token when they explain themselves; otherwise the participant's candidate groups from the
// participant directory (none without one, said so), the permissions each operation needs
// (assumed, said so at every step) and no manager role.
func (s *Service) Access(ctx context.Context, a models.Actor, id string, in AccessInput) (models.Access, error) {
	if !a.Manager {
		return models.Access{}, models.ErrForbidden
	}
	if err := requirePermission(a, models.PermSupervise); err != nil {
		return models.Access{}, err
	}
	if err := possibleID(id); err != nil {
		return models.Access{}, err
	}
	t, err := s.store.Get(ctx, a.Tenant, id)
	if err != nil {
		return models.Access{}, err
	}
	if !models.Relate(t, a, false).Manager {
		return models.Access{}, models.ErrNotFound
	}
	p, err := models.ParseAccessParticipant(a.Tenant, in.Participant, in.Provider)
	if err != nil {
		return models.Access{}, err
	}
	subject, err := s.accessSubject(ctx, a, t, p)
	if err != nil {
		return models.Access{}, err
	}
	if !in.Unrecorded {
		_, err = s.store.AppendEvent(ctx, a.Tenant, id, func(now time.Time, cur models.Task) (models.Event, error) {
			return models.AccessExplained(cur, a, p, now)
		})
		if err != nil {
			return models.Access{}, err
		}
	}
	return models.ExplainAccess(t, subject), nil
}

// accessSubject is what the service knows of participant p for an explanation on t.
func (s *Service) accessSubject(ctx context.Context, caller models.Actor, t models.Task, p models.ParticipantRef) (models.AccessSubject, error) {
	if p.Same(caller.Subject) {
		acted, err := s.store.HasActed(ctx, caller.Tenant, t.ID, p)
		return models.AccessSubject{Actor: caller, PastActor: acted,
			Premises: []models.Reason{models.NewReason(models.RuleOwnToken, models.EffectNote)}}, err
	}
	p.DisplayName = knownName(t, p)
	if p.DisplayName == "" { // not on the task: the directory may know the name
		p.DisplayName = s.ParticipantNames(ctx, caller, []models.ParticipantRef{p})[p.Key()]
	}
	a := models.Actor{Tenant: p.Tenant, Subject: p, DisplayName: p.DisplayName, Permissions: models.AccessPermissions}
	sub := models.AccessSubject{PermissionsAssumed: true}
	if p.Type == models.GroupParticipant {
		a.Groups = []models.ParticipantRef{p}
		sub.Actor = a
		sub.Premises = []models.Reason{models.NewReason(models.RuleGroupMember, models.EffectNote)}
		return sub, nil
	}
	acted, err := s.store.HasActed(ctx, p.Tenant, t.ID, p)
	if err != nil {
		return sub, err
	}
	a.Groups, sub.Premises, err = s.candidateGroupsOf(ctx, t, p)
	if err != nil {
		return sub, err
	}
	sub.Actor, sub.PastActor = a, acted
	sub.Premises = append([]models.Reason{models.NewReason(models.RuleManagerAssumedNot, models.EffectNote)}, sub.Premises...)
	return sub, nil
}

// candidateGroupsOf asks the participant directory which of t's candidate groups list user p,
// and says what it learnt: the groups, none, no directory, or a group it could not expand.
// Only candidate groups matter to the decisions, so no other group is looked up.
func (s *Service) candidateGroupsOf(ctx context.Context, t models.Task, p models.ParticipantRef) ([]models.ParticipantRef, []models.Reason, error) {
	var groups []models.ParticipantRef
	for _, c := range t.Assignment.Candidates {
		if c.Source == models.SourceDirectGroup {
			groups = append(groups, c.Participant)
		}
	}
	if len(groups) == 0 {
		return nil, nil, nil
	}
	if s.dir == nil {
		return nil, []models.Reason{models.NewReason(models.RuleGroupsUnknown, models.EffectNote)}, nil
	}
	var member []models.ParticipantRef
	var names []string
	var notes []models.Reason
	for i, g := range groups {
		if i == maxAccessGroupLookups {
			notes = append(notes, models.NewReason(models.RuleGroupsNotChecked, models.EffectNote, strconv.Itoa(len(groups)-i)))
			break
		}
		members, err := s.dir.Expand(ctx, t.Tenant, g)
		switch {
		case errors.Is(err, models.ErrNotFound): // the directory does not know the group: no members
		case ctx.Err() != nil:
			return nil, nil, ctx.Err()
		case err != nil:
			notes = append(notes, models.NewReason(models.RuleGroupLookupFailed, models.EffectNote, g.Label()))
		default:
			for _, m := range members {
				m.Tenant = t.Tenant
				if m.Same(p) {
					member = append(member, g)
					names = append(names, g.Label())
					break
				}
			}
		}
	}
	if len(names) > 0 {
		notes = append([]models.Reason{models.NewReason(models.RuleGroupsFromDir, models.EffectNote, strings.Join(names, ", "))}, notes...)
	} else {
		notes = append([]models.Reason{models.NewReason(models.RuleGroupsNone, models.EffectNote)}, notes...)
	}
	return member, notes, nil
}

// knownName is p's display name as the task recorded it (assignee, candidate rows, exclusions).
func knownName(t models.Task, p models.ParticipantRef) string {
	refs := []models.ParticipantRef{}
	if t.Assignee != nil {
		refs = append(refs, *t.Assignee)
	}
	for _, c := range t.Assignment.Candidates {
		refs = append(refs, c.Participant)
	}
	refs = append(refs, t.Assignment.Exclusions...)
	for _, r := range refs {
		if r.Same(p) && r.DisplayName != "" {
			return r.DisplayName
		}
	}
	return ""
}

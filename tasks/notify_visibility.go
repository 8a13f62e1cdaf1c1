package tasks

import (
	"context"
	"errors"

	"usertasks/directory"
	"usertasks/models"
)

// maxRecipientGroupLookups bounds the directory calls of one recipient check: a task rarely
// names more candidate groups, and a notification must not cost a directory call per group of
// a task that lists hundreds.
const maxRecipientGroupLookups = 50

// RecipientSees reports whether recipient may see t's summary now: the read policy every
// single-task reader applies (visibleView), for a person who is not signed in. What is known
// of them: the manager flag as the product last recorded it, the permissions an access
// explanation assumes (view, claim, complete), their live candidate groups as dir expands them
// (none without a directory; snapshot tasks do not count groups), and whether they acted on t
// before (acted). The notification delivery asks it before anything is shown or sent (SPEC
// 10.3: a recipient who can no longer see the task gets nothing). A directory that cannot
// answer is an error, so the caller tries again later instead of dropping; an unknown group
// has no members.
func RecipientSees(ctx context.Context, t models.Task, recipient models.ParticipantRef, manager bool,
	dir directory.Directory, acted func(context.Context) (bool, error)) (bool, error) {
	if recipient.Type != models.UserParticipant || recipient.Provider == models.GuestProvider || recipient.ID == "" {
		return false, nil
	}
	recipient.Tenant = t.Tenant
	a := models.Actor{Tenant: t.Tenant, Subject: recipient, DisplayName: recipient.DisplayName,
		Permissions: models.AccessPermissions, Manager: manager}
	groups, err := recipientGroups(ctx, t, recipient, dir)
	if err != nil {
		return false, err
	}
	a.Groups = groups
	_, ok, err := visibleView(ctx, t, a, acted)
	return ok, err
}

// recipientGroups are the live candidate groups of t that list user p: only they can make p a
// candidate, so no other group is looked up.
func recipientGroups(ctx context.Context, t models.Task, p models.ParticipantRef, dir directory.Directory) ([]models.ParticipantRef, error) {
	if dir == nil || t.Assignment.Mode == models.MembershipSnapshot || t.Assignment.Excludes(p) {
		return nil, nil
	}
	var out []models.ParticipantRef
	looked := 0
	for _, c := range t.Assignment.Candidates {
		if c.Source != models.SourceDirectGroup {
			continue
		}
		if looked == maxRecipientGroupLookups {
			break
		}
		looked++
		members, err := dir.Expand(ctx, t.Tenant, c.Participant)
		switch {
		case errors.Is(err, models.ErrNotFound):
			continue
		case err != nil:
			return nil, err
		}
		for _, m := range members {
			m.Tenant = t.Tenant
			if m.Same(p) {
				out = append(out, c.Participant)
				return out, nil // one group is enough to be a candidate
			}
		}
	}
	return out, nil
}

package notify

import (
	"context"
	"errors"
	"log/slog"

	"usertasks/models"
	"usertasks/storekit"
)

// expand replaces a group row by a row per member, as the directory answers now: the same
// task, trigger, revision, actor, title and time, never for an excluded user, a guest or the
// actor. The members' rows are delivered like any user row (visibility checked each).
func (d *Deliverer) expand(ctx, book context.Context, log *slog.Logger, group models.Notification, t models.Task) Counts {
	if d.dir == nil {
		return d.drop(book, log, group, CodeNoDirectory)
	}
	members, err := d.dir.Expand(ctx, group.Tenant, group.Recipient)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return d.drop(book, log, group, CodeGroupUnknown)
	case err != nil && ctx.Err() != nil:
		return Counts{} // shutting down
	case err != nil:
		return d.retry(book, log, group, models.ChannelOff, models.ChannelOff, CodeDirectoryDown, false)
	}
	rows := memberRows(group, t, members)
	written, err := d.store.ExpandNotification(book, group, rows)
	switch {
	case errors.Is(err, models.ErrLeaseLost):
		log.Info("group notification expanded by another node meanwhile")
		return Counts{}
	case err != nil:
		log.Warn("expand group notification", "code", errorCode(err))
		return d.retry(book, log, group, models.ChannelOff, models.ChannelOff, CodeStore, false)
	}
	log.Debug("group notification expanded", "members", len(members), "rows", written)
	return Counts{Expanded: 1, Members: written}
}

// memberRows are the rows of group's members: each user once, never an excluded user, a
// guest, or the actor of the change (storekit.Notifiable, as for the rows of a change).
func memberRows(group models.Notification, t models.Task, members []models.ParticipantRef) []models.Notification {
	seen := map[string]bool{}
	if group.Actor != nil {
		actor := *group.Actor
		actor.Tenant = t.Tenant
		seen[actor.Key()] = true
	}
	var rows []models.Notification
	for _, m := range members {
		m.Tenant = t.Tenant
		m.Type = models.UserParticipant
		if !storekit.Notifiable(&t, m) || seen[m.Key()] {
			continue
		}
		seen[m.Key()] = true
		row := storekit.NewNotification(&t, group.Trigger, group.Revision, m, group.Actor, group.OccurredAt)
		row.Title = group.Title // what the change said, not what the task says now
		rows = append(rows, row)
	}
	return rows
}

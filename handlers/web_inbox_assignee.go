package handlers

import (
	"context"
	"net/url"
	"strings"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The inbox's assignee filter lives in its URL like on the API (models.ParseAssigneeFilter):
//
//	/inbox?tab=all&assignee=user:ann&assigneeProvider=ldap
//	/inbox?tab=all&assignee=none
//
// The page has no control for it: the dashboard's workload links set it, and the list shows
// it by name with a link that clears it. It only narrows what the tab lists.

// readAssigneeFilter reads the assignee filter of an inbox URL, as typed.
func readAssigneeFilter(q url.Values) views.InboxAssignee {
	return views.InboxAssignee{Value: strings.TrimSpace(q.Get("assignee")), Provider: strings.TrimSpace(q.Get("assigneeProvider"))}
}

// setAssigneeFilter puts the assignee filter into an inbox URL's query.
func setAssigneeFilter(v url.Values, a views.InboxAssignee) {
	if a.Value != "" {
		v.Set("assignee", a.Value)
	}
	if a.Provider != "" {
		v.Set("assigneeProvider", a.Provider)
	}
}

// assigneeParams are the inbox URL parameters that filter by one assignee.
func assigneeParams(p models.ParticipantRef) []string {
	out := []string{"assignee", string(p.Type) + ":" + p.ID}
	if p.Provider != "" && p.Provider != models.DefaultProvider {
		out = append(out, "assigneeProvider", p.Provider)
	}
	return out
}

// assigneeFilter parses the assignee filter into f; a malformed one is a message under
// "assignee".
func (q inboxQuery) assigneeFilter(f *models.TaskFilter, errs map[string]string, t *i18n.Catalog) {
	a, err := models.ParseAssigneeFilter("", q.filters.Assignee.Value, q.filters.Assignee.Provider)
	if err != nil {
		errs["assignee"] = t.AssigneeFilter.Invalid
		return
	}
	f.Assignee = a
}

// withoutAssignee is the same list without the assignee filter, from its first page.
func (q inboxQuery) withoutAssignee() inboxQuery {
	q = q.firstPage()
	q.filters.Assignee = views.InboxAssignee{}
	return q
}

// assigneeChip shows the active assignee filter: by the name a listed task carries for it,
// else the directory's, else the id marked as one; errMsg when the filter is malformed.
func (w *web) assigneeChip(ctx context.Context, t *i18n.Catalog, a models.Actor, q inboxQuery, items []tasks.TaskView, errMsg string) *views.AssigneeChip {
	if q.filters.Assignee.Value == "" && q.filters.Assignee.Provider == "" {
		return nil
	}
	ch := &views.AssigneeChip{ClearHref: q.withoutAssignee().href(), Error: errMsg}
	if errMsg != "" {
		return ch
	}
	f, err := models.ParseAssigneeFilter(a.Tenant, q.filters.Assignee.Value, q.filters.Assignee.Provider)
	switch {
	case err != nil:
		ch.Error = t.AssigneeFilter.Invalid
		return ch
	case f.Unassigned:
		ch.Unassigned = true
		return ch
	}
	p := f.Participant
	for _, v := range items {
		if as := v.Task.Assignee; as != nil && as.DisplayName != "" && as.Provider == p.Provider && as.Type == p.Type && as.ID == p.ID {
			p.DisplayName = as.DisplayName
			break
		}
	}
	if p.DisplayName == "" {
		ch.Name = w.newNamer(ctx, a, t, []models.ParticipantRef{p}).label(p)
	} else {
		ch.Name = participantLabel(t, p, nil)
	}
	return ch
}

package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// pickerSize is how many people one picker search lists as choices.
const pickerSize = 20

// participantsPath is the participants endpoint the picker's script asks.
const participantsPath = "/api/v1/user-task-participants"

// peoplePicker builds the assign form's picker for GET /tasks/:id?people=…: the search form
// always (with a directory), and the matching users as choices once a search ran. A refused
// search or a failing directory is a message next to the search, never an error page.
func (w *web) peoplePicker(c echo.Context, taskID string, section views.Section, query, chosen string) *views.PeoplePicker {
	if !w.tasks.HasDirectory() {
		return nil
	}
	href := taskHref(taskID)
	p := &views.PeoplePicker{Action: href, Endpoint: participantsPath, ClearHref: href + "#assign-heading", Field: "assignee", Target: "assign-assignee"}
	if section != views.SectionTask {
		p.Tab = string(section)
		p.ClearHref = href + "?tab=" + url.QueryEscape(string(section)) + "#assign-heading"
	}
	return w.searchPeople(c, p, query, chosen)
}

// searchPeople runs a picker's search for query (none when it is blank) and lists the matching
// users as its choices, chosen checked; a picker's page, names and parameters are the caller's.
func (w *web) searchPeople(c echo.Context, p *views.PeoplePicker, query, chosen string) *views.PeoplePicker {
	t := catalog(c)
	p.Query = query
	query = strings.TrimSpace(query)
	if query == "" {
		return p
	}
	p.Searched = true
	page, err := w.tasks.Participants(c.Request().Context(), webActor(c), tasks.ParticipantQuery{Search: query, Type: models.UserParticipant, Limit: pickerSize})
	var ve *models.ValidationError
	switch {
	case errors.As(err, &ve):
		p.Error = t.People.SearchInvalid
		return p
	case err != nil:
		w.log.WarnContext(c.Request().Context(), "people picker: the directory search failed", "error", err.Error())
		p.Error = t.People.Unavailable
		return p
	}
	p.More = page.NextCursor != ""
	for _, r := range page.Items {
		p.Choices = append(p.Choices, views.PersonChoice{ID: r.ID, Label: participantLabel(t, r, nil), Named: r.DisplayName != "", Checked: r.ID == chosen})
	}
	return p
}

// namer labels participants for the pages: their own name, else the directory's, else the id
// marked as one (never a bare id that could pass for a name).
type namer struct {
	t     *i18n.Catalog
	names map[string]string
}

// newNamer asks the directory for the names of refs that carry none.
func (w *web) newNamer(ctx context.Context, a models.Actor, t *i18n.Catalog, refs []models.ParticipantRef) namer {
	return namer{t: t, names: w.tasks.ParticipantNames(ctx, a, refs)}
}

func (n namer) label(p models.ParticipantRef) string { return participantLabel(n.t, p, n.names) }

// taskNamer is newNamer for participants of one task: where refs name a guest, it names the
// task's guests by their invitations' recipients too, for a caller who may see them.
func (w *web) taskNamer(ctx context.Context, a models.Actor, t *i18n.Catalog, taskID string, refs []models.ParticipantRef) (namer, error) {
	n := w.newNamer(ctx, a, t, refs)
	if !slices.ContainsFunc(refs, models.ParticipantRef.IsGuest) {
		return n, nil
	}
	guests, err := w.tasks.GuestNames(ctx, a, taskID)
	if err != nil {
		return n, err
	}
	if n.names == nil {
		n.names = map[string]string{}
	}
	maps.Copy(n.names, guests)
	return n, nil
}

// participantLabel is a participant as a page shows it; groups say they are groups, guests that
// they are guests (named by their invitation's recipient where names holds it).
func participantLabel(t *i18n.Catalog, p models.ParticipantRef, names map[string]string) string {
	if p.IsGuest() {
		if name := names[p.Key()]; name != "" {
			return t.Format(t.Invitations.GuestNamed, name)
		}
		return t.Invitations.Guest
	}
	label := p.DisplayName
	if label == "" {
		label = names[p.Key()]
	}
	if label == "" {
		label = t.Format(t.People.Unnamed, p.ID)
	}
	if p.Type == models.GroupParticipant {
		return t.Format(t.People.Group, label)
	}
	return label
}

// taskParticipants are the participants the task page may name: assignee, requester,
// completer, delegator, and for managers the candidates and their source groups.
func taskParticipants(t models.Task, manager bool) []models.ParticipantRef {
	var refs []models.ParticipantRef
	for _, p := range []*models.ParticipantRef{t.Assignee, t.Requester, t.Outcome.CompletedBy, t.DelegatedBy} {
		if p != nil {
			refs = append(refs, *p)
		}
	}
	if manager {
		for _, c := range t.Assignment.Candidates {
			refs = append(refs, c.Participant)
			if c.SourceGroup != nil {
				refs = append(refs, *c.SourceGroup)
			}
		}
	}
	return refs
}

// candidateList names a task's candidates for its managers.
func candidateList(n namer, t models.Task) *views.CandidateList {
	l := &views.CandidateList{}
	for _, c := range t.Assignment.Candidates {
		row := views.CandidateRow{Label: n.label(c.Participant), Group: c.Participant.Type == models.GroupParticipant}
		if c.SourceGroup != nil {
			row.Via = n.label(*c.SourceGroup)
		}
		l.Items = append(l.Items, row)
	}
	return l
}

// assignedTo reads the assignee an assigned event's metadata carries.
func assignedTo(e models.Event) (models.ParticipantRef, bool) {
	if e.Type != models.EventAssigned || len(e.Metadata) == 0 {
		return models.ParticipantRef{}, false
	}
	var md struct {
		Assignee *participantRequest `json:"assignee"`
	}
	if err := json.Unmarshal(e.Metadata, &md); err != nil || md.Assignee == nil || md.Assignee.ID == "" {
		return models.ParticipantRef{}, false
	}
	p := md.Assignee
	return models.ParticipantRef{Tenant: e.Tenant, Provider: p.Provider, Type: p.Type, ID: p.ID, DisplayName: p.DisplayName}, true
}

// eventParticipants are the actors and assignees of a page of events.
func eventParticipants(evs []models.Event) []models.ParticipantRef {
	var refs []models.ParticipantRef
	for _, e := range evs {
		if e.Actor != nil {
			refs = append(refs, *e.Actor)
		}
		if p, ok := assignedTo(e); ok {
			refs = append(refs, p)
		}
		refs = append(refs, handoverRefs(e)...) // web_task_handover_history.go
	}
	return refs
}

// eventSummary is the one sentence of an event that says more than its name: "Assigned to
// Ann Lee by Max Manager", "Deadline 1 (start) passed: notified, reassigned", "Created with
// the workflow's default deadlines (revision 2)".
func (n namer) eventSummary(e models.Event) string {
	switch e.Type {
	case models.EventDeadlineFired:
		return deadlineFiredSummary(n.t, e)
	case models.EventCreated:
		return createdSummary(n.t, e)
	}
	if s := n.handoverSummary(e); s != "" {
		return s
	}
	p, ok := assignedTo(e)
	if !ok {
		return ""
	}
	if e.Actor == nil {
		return n.t.Format(n.t.People.AssignedTo, n.label(p))
	}
	return n.t.Format(n.t.People.AssignedBy, n.label(p), n.label(*e.Actor))
}

// nameAssignees names the list's assignees (rows[i] shows items[i]) and the absent users a
// substitute sees rows on behalf of (behalf[i], web_absence.go): their own name, the
// directory's, or the id marked as one — one directory lookup for the page.
func (w *web) nameAssignees(c echo.Context, t *i18n.Catalog, a models.Actor, items []tasks.TaskView, rows []views.InboxRow, behalf []*models.ParticipantRef) {
	var refs []models.ParticipantRef
	for i, v := range items {
		if v.Task.Assignee != nil {
			refs = append(refs, *v.Task.Assignee)
		}
		if i < len(behalf) && behalf[i] != nil {
			refs = append(refs, *behalf[i])
		}
	}
	if len(refs) == 0 {
		return
	}
	n := w.newNamer(c.Request().Context(), a, t, refs)
	for i, v := range items {
		if i >= len(rows) {
			break
		}
		if v.Task.Assignee != nil {
			rows[i].Assignee = n.label(*v.Task.Assignee)
		}
		if i < len(behalf) && behalf[i] != nil {
			rows[i].OnBehalfOf = n.label(*behalf[i])
		}
	}
}

// createdSummary names the default deadline policy revision a created task got
// (models.ApplyDeadlinePolicy); "" without one.
func createdSummary(t *i18n.Catalog, e models.Event) string {
	var md struct {
		Revision int `json:"deadlinePolicyRevision"`
	}
	if len(e.Metadata) == 0 || json.Unmarshal(e.Metadata, &md) != nil || md.Revision <= 0 {
		return ""
	}
	return t.Format(t.Policies.HistoryCreated, strconv.Itoa(md.Revision))
}

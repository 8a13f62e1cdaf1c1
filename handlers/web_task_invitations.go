package handlers

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The Manage panel's guest links (SPEC 5.4): managers with the invite permission issue links
// against the task's invitation definitions, see each link's status in words with its delivery
// attempts and expiry, and revoke them. Both posts follow web_task_post.go's shape.

// issueInvitations handles POST /tasks/:id/invitations (managers).
func (w *web) issueInvitations(c echo.Context, id string, in tasks.Common) error {
	t := catalog(c)
	posted := postedInvitation(c)
	input := invitations.IssueInput{Recipients: splitRecipients(posted.recipients), AllowedActions: posted.actions,
		BearerOnly: &posted.bearer, OperationID: in.OperationID}
	if n, err := strconv.Atoi(posted.definition); err == nil {
		input.Definition = &n
	}
	_, err := w.invites.Issue(c.Request().Context(), webActor(c), id, input)
	return w.manageAnswer(c, id, err, flashInvitationsIssued, func(ve *models.ValidationError) taskState {
		errs := map[string]string{}
		for _, fe := range ve.Fields {
			key, label := invitationField(t, fe.Field)
			if errs[key] == "" {
				errs[key] = sentence(label, t.FieldMessage(fe.Message))
			}
		}
		if len(errs) == 0 {
			errs["form"] = t.Problem(ve.Code)
		}
		return taskState{invite: &invitationState{posted: posted, errors: errs}}
	})
}

// revokeInvitation handles POST /tasks/:id/invitations/:invitationId/revoke (managers).
func (w *web) revokeInvitation(c echo.Context, id string, _ tasks.Common) error {
	_, err := w.invites.Revoke(c.Request().Context(), webActor(c), id, c.Param("invitationId"))
	return w.manageAnswer(c, id, err, flashInvitationRevoked, func(ve *models.ValidationError) taskState {
		return taskState{errMsg: catalog(c).Problem(ve.Code)}
	})
}

// invitationState is a refused issue form: the values as posted and the messages by field.
type invitationState struct {
	posted invitationPost
	errors map[string]string
}

// invitationPost is the issue form as posted.
type invitationPost struct {
	definition string
	recipients string
	actions    []string
	bearer     bool
}

func postedInvitation(c echo.Context) invitationPost {
	_ = c.Request().ParseForm()
	return invitationPost{
		definition: c.FormValue("definition"),
		recipients: c.FormValue("recipients"),
		actions:    c.Request().PostForm["allowedActions"],
		bearer:     c.FormValue("bearerOnly") == "true",
	}
}

// splitRecipients reads the recipients textarea: one per line, blank lines skipped.
func splitRecipients(raw string) []string {
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(raw, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// invitationField maps a refused field of the issue request to the form's input and its label.
func invitationField(t *i18n.Catalog, field string) (string, string) {
	switch name, _, _ := strings.Cut(field, "["); name {
	case "definition":
		return "definition", t.Invitations.DefinitionLabel
	case "recipients":
		return "recipients", t.Invitations.RecipientsLabel
	case "allowedActions":
		return "allowedActions", t.Invitations.ActionsLegend
	case "bearerOnly":
		return "bearerOnly", t.Invitations.BearerLabel
	}
	return "form", ""
}

// addInvitations puts the guest links on a manager's task page: the issue form when the task
// allows issuing now, and the list of its invitations. A manager without the invite permission
// sees neither.
func (w *web) addInvitations(c echo.Context, m *views.TaskPage, v tasks.TaskView, st taskState) error {
	if w.invites == nil || !v.Manager {
		return nil
	}
	list, err := w.invites.List(c.Request().Context(), webActor(c), v.Task.ID)
	if errors.Is(err, models.ErrForbidden) {
		return nil
	}
	if err != nil {
		return err
	}
	p := &views.InvitationPanel{}
	switch dispatcher := w.invites.Dispatcher(); {
	case !slices.Contains(v.AllowedActions, models.ActInvite):
	case dispatcher == "":
		p.Unavailable = m.T.Problem(models.CodeInvitationsUnavailable)
	default:
		p.Form = invitationForm(m.T, v.Task, list.Definitions, dispatcher, st.invite)
	}
	for _, inv := range list.Items {
		row := views.InvitationRow{ID: inv.ID, Recipient: inv.Recipient, Status: string(inv.Status),
			StatusText: invitationStatusText(m.T, inv.Status), Expires: inv.ExpiresAt, Group: inv.SiblingGroupID != ""}
		if d := inv.Delivery; d != nil {
			row.Attempts, row.LastError = d.Attempts, d.LastError
		}
		if inv.Revocable {
			row.Revoke = &views.Command{Action: taskHref(v.Task.ID) + "/invitations/" + inv.ID + "/revoke",
				Revision: v.Task.Revision, OperationID: models.NewID()}
		}
		p.Items = append(p.Items, row)
	}
	if p.Form == nil && p.Unavailable == "" && len(p.Items) == 0 {
		return nil
	}
	if m.Manage == nil {
		m.Manage = &views.ManagePanel{}
	}
	m.Manage.Invitations = p
	return nil
}

// invitationForm is the issue form, fresh or as refused.
func invitationForm(t *i18n.Catalog, task models.Task, defs []models.InvitationDefinition, dispatcher string, st *invitationState) *views.InvitationForm {
	f := &views.InvitationForm{
		Command: views.Command{Action: taskHref(task.ID) + "/invitations", Revision: task.Revision, OperationID: models.NewID()},
		Email:   dispatcher == "smtp", Errors: map[string]string{},
	}
	var posted invitationPost
	if st != nil {
		posted, f.Errors = st.posted, st.errors
		f.Recipients, f.BearerOnly = posted.recipients, posted.bearer
	}
	if st == nil && len(defs) > 0 {
		f.Recipients = defs[0].Recipient // a definition that names its recipient allows no other
	}
	for i, d := range defs {
		verifier := t.Invitations.VerifierCode
		if d.BearerOnly && d.VerifierName == "bearer" {
			verifier = t.Invitations.VerifierBearer
		}
		labels := make([]string, 0, len(d.AllowedActions))
		for _, key := range d.AllowedActions {
			labels = append(labels, actionLabel(t, task, key))
			if !slices.ContainsFunc(f.Actions, func(a views.InvitationAction) bool { return a.Key == key }) {
				f.Actions = append(f.Actions, views.InvitationAction{Key: key, Label: actionLabel(t, task, key), Checked: slices.Contains(posted.actions, key)})
			}
		}
		value := strconv.Itoa(i)
		f.Definitions = append(f.Definitions, views.Option{Value: value, Label: t.Format(t.Invitations.DefinitionOption, verifier, strings.Join(labels, ", ")),
			Selected: value == posted.definition || (posted.definition == "" && i == 0)})
		f.Bearer = f.Bearer || d.BearerOnly
	}
	return f
}

// invitationStatusText says a display status in words.
func invitationStatusText(t *i18n.Catalog, s invitations.ListStatus) string {
	words := map[invitations.ListStatus]string{
		invitations.ListIssued: t.Invitations.Issued, invitations.ListDispatched: t.Invitations.Dispatched,
		invitations.ListVerified: t.Invitations.Verified, invitations.ListConsumed: t.Invitations.Consumed,
		invitations.ListExpired: t.Invitations.Expired, invitations.ListFailed: t.Invitations.Failed,
	}
	return firstNonEmpty(words[s], t.Invitations.Revoked)
}

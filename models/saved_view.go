package models

import (
	"strings"
	"time"
	"unicode/utf8"
)

// A SavedView is a named inbox query of one person: the filters and sort of an inbox URL
// (never a cursor), private to its owner or shared with the tenant's managers.
//
// Rules (issue 10):
//   - the name is 1–80 characters of one line (no control or bidirectional formatting
//     characters), unique per owner case-insensitively;
//   - an owner keeps at most MaxSavedViews views;
//   - only managers share; a shared view is visible to the tenant's managers, a private one to
//     its owner only; whoever may not see a view gets not-found;
//   - the owner renames and deletes their views; a manager may also delete a view shared with
//     the managers (to clean up after someone who left), never rename it.
type SavedView struct {
	ID        string
	Tenant    string
	Owner     ParticipantRef
	Name      string
	Query     string // the normalized inbox URL query, e.g. "tab=all&status=Assigned&sort=due"
	Shared    bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Limits of saved views.
const (
	MaxSavedViews         = 50   // per owner
	MaxSavedViewName      = 80   // characters
	MaxSavedViewQuerySize = 2000 // bytes of the normalized query
)

// SavedViewName trims a view's name and checks it; the message is a field error's.
func SavedViewName(raw string) (string, string) {
	name := strings.TrimSpace(raw)
	switch {
	case name == "":
		return name, "is required"
	case TextProblem(name, Label) != "":
		return name, TextProblem(name, Label)
	case utf8.RuneCountInString(name) > MaxSavedViewName:
		return name, "must be at most 80 characters"
	}
	return name, ""
}

// SavedViewNameKey is what makes two names the same: their lower-case form.
func SavedViewNameKey(name string) string { return strings.ToLower(name) }

// CanShareViews reports whether a may share views with the managers: managers only.
func CanShareViews(a Actor) bool { return a.Guest == nil && a.Manager && ActorCan(a, PermSupervise) }

// SeesSavedView reports whether a may open v: its owner, or a manager for a shared view.
func SeesSavedView(a Actor, v SavedView) bool {
	return a.Guest == nil && a.Tenant == v.Tenant && (ownsView(a, v) || (v.Shared && CanShareViews(a)))
}

// MayDeleteSavedView reports whether a may delete v: its owner, or a manager for a shared view.
func MayDeleteSavedView(a Actor, v SavedView) bool { return SeesSavedView(a, v) }

// MayRenameSavedView reports whether a may rename v: its owner only.
func MayRenameSavedView(a Actor, v SavedView) bool {
	return a.Guest == nil && a.Tenant == v.Tenant && ownsView(a, v)
}

func ownsView(a Actor, v SavedView) bool {
	me := a.Subject
	return me.ID != "" && me.Provider == v.Owner.Provider && me.Type == v.Owner.Type && me.ID == v.Owner.ID
}

// WorkflowChoice is one workflow definition the inbox offers as a filter: its id and the
// name its newest task carries ("" when none does).
type WorkflowChoice struct {
	ID   string
	Name string
}

package models

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Comments on a task (SPEC 10.1): people who may read a task's summary discuss it where the
// work is. The text is protected content — sealed at rest, never in lists, search, events, logs
// or notifications — but read by a wider circle than the protected fields; guests neither read
// nor write comments in this version. A comment never changes the task: no revision bump, so it
// never makes a form submission conflict.

// Limits of comments (SPEC 10.1).
const (
	MaxCommentLength    = 10_000 // characters (runes) of the trimmed text
	MaxCommentsPerTask  = 500    // deleted ones count: the item stays
	MaxCommentMentions  = 50     // distinct people one comment may mention
	CommentDeleteWindow = 15 * time.Minute
)

// Comment events: the metadata names the comment id only.
const (
	EventCommentAdded   EventType = "comment-added"
	EventCommentDeleted EventType = "comment-deleted"
)

// Comment is one comment on a task. A deleted comment keeps its id, author and times; its Text
// and Mentions are erased.
type Comment struct {
	ID     string
	Tenant string
	TaskID string
	// Author is who wrote it, with the display name they had then.
	Author ParticipantRef
	// Text is the trimmed CommonMark text; "" once deleted.
	Text string
	// Mentions are the people the text mentions (ParseMentions, resolved by ResolveMentions),
	// whether or not they may read the task: the list says what the author wrote, never who
	// exists or was told.
	Mentions  []ParticipantRef
	CreatedAt time.Time
	DeletedAt *time.Time
}

// Deleted reports whether the comment's text was erased.
func (c Comment) Deleted() bool { return c.DeletedAt != nil }

// CommentTextProblem returns why s is not acceptable comment text, or "": 1–10,000 characters
// after trimming, and the prose rules (tab and line breaks kept; other control characters,
// bidirectional overrides and invalid UTF-8 refused).
func CommentTextProblem(s string) string {
	if msg := TextProblem(s, Prose); msg != "" {
		return msg
	}
	t := strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(t); {
	case n == 0:
		return "is required"
	case n > MaxCommentLength:
		return "must be at most 10000 characters"
	}
	return ""
}

// ParseMentions returns the distinct participant ids the text mentions, in order of first
// appearance. A mention is "@" followed by an id, where:
//   - the "@" starts the text or follows a character that cannot be part of an id and is not
//     "@" or "/" (so "ann@example.com", "@@x" and "https://host/@x" mention no one);
//   - the id is one or more letters, digits or marks of any script and ".", "_", "-", "+", "|"
//     (OIDC subjects such as "auth0|42"), without trailing "." or "-" (the end of a sentence:
//     "ask @ann." mentions ann);
//   - an id longer than MaxParticipantIDLength bytes is no mention.
//
// Code spans are not told apart: "`@ann`" mentions ann too.
func ParseMentions(text string) []string {
	var out []string
	seen := map[string]bool{}
	prev := rune(-1) // start of text
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r != '@' || (prev != -1 && (mentionRune(prev) || prev == '@' || prev == '/')) {
			prev = r
			i += size
			continue
		}
		j := i + size
		for j < len(text) {
			c, n := utf8.DecodeRuneInString(text[j:])
			if !mentionRune(c) {
				break
			}
			j += n
		}
		id := strings.TrimRight(text[i+size:j], ".-")
		if id != "" && len(id) <= MaxParticipantIDLength && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
		// The scan resumes after the whole run, so "@a@b" is one mention of "a" only.
		prev = '@'
		if j > i+size {
			prev, _ = utf8.DecodeLastRuneInString(text[:j])
		}
		i = j
	}
	return out
}

// mentionRune reports whether r may be part of a mentioned id.
func mentionRune(r rune) bool {
	switch r {
	case '.', '_', '-', '+', '|':
		return true
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// ResolveMentions turns mentioned ids into user references of t's tenant: the provider of a
// user the task names with that id (the assignee, a candidate or snapshot member, the
// completer), else the author's provider. Guests and ids that are no valid identifier are left
// out. Who may read the task is not decided here: that is the notification's business.
func ResolveMentions(t Task, author ParticipantRef, ids []string) []ParticipantRef {
	known := map[string]ParticipantRef{}
	note := func(p *ParticipantRef) {
		if p != nil && p.Type == UserParticipant && p.Provider != GuestProvider {
			if _, ok := known[p.ID]; !ok {
				known[p.ID] = *p
			}
		}
	}
	note(t.Assignee)
	for i := range t.Assignment.Candidates {
		note(&t.Assignment.Candidates[i].Participant)
	}
	note(t.Outcome.CompletedBy)
	var out []ParticipantRef
	for _, id := range ids {
		if TextProblem(id, Identifier) != "" {
			continue
		}
		p, ok := known[id]
		if !ok {
			p = ParticipantRef{Provider: author.Provider, Type: UserParticipant, ID: id}
		}
		p.Tenant, p.DisplayName = t.Tenant, ""
		if p.Provider == "" || p.Provider == GuestProvider {
			continue
		}
		out = append(out, p)
	}
	return out
}

// CommentAddFunc decides a new comment on the task as loaded in the write transaction, at the
// database time; count is how many comments the task has (deleted ones included). The event
// it returns is the comment-added event the store appends.
type CommentAddFunc func(now time.Time, task Task, count int) (Comment, Event, error)

// CommentDeleteFunc decides the deletion of c on the task as loaded in the write transaction.
type CommentDeleteFunc func(now time.Time, task Task, c Comment) (Event, error)

// CommentQuery pages one task's comments, oldest first.
type CommentQuery struct {
	Tenant string
	TaskID string
	After  *CommentCursor // the previous page's Next; nil for the first page
	Limit  int            // at most MaxPageSize; 0 or less is DefaultPageSize
}

// CommentCursor is the keyset position after the last comment of a page.
type CommentCursor struct {
	CreatedAt time.Time
	ID        string
}

// CommentPage is one page of comments and the position of the next (nil at the end).
type CommentPage struct {
	Items []Comment
	Next  *CommentCursor
}

// mayComment reports whether a is a signed-in person of t's tenant: who may read the summary is
// decided by the caller before (the read policy needs the directory and the history); guests
// and the system never comment.
func mayComment(t Task, a Actor) bool {
	return !a.System && a.Guest == nil && a.Tenant == t.Tenant && a.Subject.ID != "" &&
		a.Subject.Type == UserParticipant && !hiddenFrom(t, a)
}

// AddComment decides a comment by a on t with text, the task holding count comments: the
// trimmed text, its mentions and the comment-added event (metadata: the comment id only).
// Refusals: ErrNotFound for a guest, the system or another tenant (the same answer as a
// missing task); 422 validation-failed naming text for bad text, too many mentions, or a task
// holding MaxCommentsPerTask comments already. id is the comment's id, chosen by the caller
// (a replayed operation keeps its id).
func AddComment(t Task, a Actor, id, text string, count int, now time.Time) (Comment, Event, error) {
	if err := checkStored(t); err != nil {
		return Comment{}, Event{}, err
	}
	if !mayComment(t, a) {
		return Comment{}, Event{}, ErrNotFound
	}
	if msg := CommentTextProblem(text); msg != "" {
		return Comment{}, Event{}, InvalidField("text", msg)
	}
	if count >= MaxCommentsPerTask {
		return Comment{}, Event{}, InvalidField("text", "the task has 500 comments, the most it may have")
	}
	text = strings.TrimSpace(text)
	ids := ParseMentions(text)
	if len(ids) > MaxCommentMentions {
		return Comment{}, Event{}, InvalidField("text", "may mention at most 50 people")
	}
	author := a.Subject
	author.Tenant, author.DisplayName = t.Tenant, Truncate(a.DisplayName, MaxDisplayNameLength)
	if author.DisplayName == "" {
		author.DisplayName = Truncate(a.Subject.DisplayName, MaxDisplayNameLength)
	}
	c := Comment{ID: id, Tenant: t.Tenant, TaskID: t.ID, Author: author, Text: text,
		Mentions: ResolveMentions(t, author, ids), CreatedAt: now}
	ev, err := newEvent(t, a, EventCommentAdded, map[string]string{"comment": id}, now)
	return c, ev, err
}

// DeleteComment decides the deletion of c by a: its author within CommentDeleteWindow of its
// creation, or a manager. A comment deleted already is a replay: it answers the same (no new
// event: the store writes nothing). Refusals: ErrNotFound for a guest, the system, another tenant or
// a comment of another task; ErrForbidden for anyone else, and for the author once the window
// has passed.
func DeleteComment(t Task, a Actor, c Comment, now time.Time) (Event, error) {
	if err := checkStored(t); err != nil {
		return Event{}, err
	}
	if !mayComment(t, a) || c.TaskID != t.ID || c.Tenant != t.Tenant {
		return Event{}, ErrNotFound
	}
	subject := a.Subject
	subject.Tenant = a.Tenant
	author := c.Author.Same(subject)
	switch {
	case manages(t, a):
	case author && now.Sub(c.CreatedAt) <= CommentDeleteWindow:
	default:
		return Event{}, ErrForbidden
	}
	return newEvent(t, a, EventCommentDeleted, map[string]string{"comment": c.ID}, now)
}

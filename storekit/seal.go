package storekit

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/store"
)

// Protected column names double as the associated data of their ciphertext, binding each value
// to its row and column: a value copied elsewhere does not decrypt. Every store names its
// sealed fields so, so a sealed value means the same in each.
const (
	ColInstructions   = "instructions_enc"
	ColTaskData       = "task_data_enc"
	ColForm           = "form_enc"
	ColInvitationDefs = "invitation_defs_enc"
	ColCompletionData = "completion_data_enc"
	ColPayload        = "payload_enc" // an operation's payload
)

// ProtectedColumn is one sealed column of a task: its name, the part of the protected content
// it holds, and whether that part differs between two tasks (a change reseals only those).
type ProtectedColumn struct {
	Name    string
	Part    models.ProtectedParts
	Differs func(a, b *models.Protected) bool
}

// ProtectedColumns are a task's sealed columns, in the order they are sealed and opened.
var ProtectedColumns = []ProtectedColumn{
	{ColInstructions, models.ReadsInstructions, func(a, b *models.Protected) bool { return a.Instructions != b.Instructions }},
	{ColTaskData, models.ReadsData, func(a, b *models.Protected) bool { return !bytes.Equal(a.Data, b.Data) }},
	{ColForm, models.ReadsForm, func(a, b *models.Protected) bool { return !reflect.DeepEqual(a.Form, b.Form) }},
	{ColInvitationDefs, models.ReadsInvitations, func(a, b *models.Protected) bool {
		return !reflect.DeepEqual(a.InvitationDefinitions, b.InvitationDefinitions)
	}},
	{ColCompletionData, models.ReadsCompletionData, func(a, b *models.Protected) bool { return !bytes.Equal(a.CompletionData, b.CompletionData) }},
}

// TaskTable is the table of the tasks' own rows (the document store's aggregates), which holds
// their protected columns.
const TaskTable = "user_tasks"

// AAD is the associated data of a value sealed in column of row rowID.
func AAD(rowID, column string) []byte { return []byte(rowID + "/" + column) }

// Sealer seals and opens a store's protected values with its key ring.
type Sealer struct{ Keys *keyring.Keyring }

// Seal seals plain for column of row rowID; nothing (nil, stored as null) when plain is empty.
func (s Sealer) Seal(rowID, column string, plain []byte) (*string, error) {
	if len(plain) == 0 {
		return nil, nil
	}
	env, err := s.Keys.Seal(plain, AAD(rowID, column))
	if err != nil {
		return nil, err
	}
	return &env, nil
}

// SealedState is what looking at one sealed value found.
type SealedState int

const (
	SealedEmpty SealedState = iota // no value
	SealedCurrent
	SealedStale // opens, under another key than the primary
	SealedUnreadable
)

// Check counts env under its key id in byKey and tells whether it opens as sealed in column of
// row rowID, and under which key; plain is what it opened to. An empty env is SealedEmpty and
// not counted; an error other than undecodable is the key ring's.
func (s Sealer) Check(rowID, column, env string, byKey map[string]int) (state SealedState, plain []byte, err error) {
	if env == "" {
		return SealedEmpty, nil, nil
	}
	kid, _ := keyring.KeyID(env)
	byKey[kid]++
	plain, err = s.Keys.Open(env, AAD(rowID, column))
	switch {
	case errors.Is(err, keyring.ErrUndecodable):
		return SealedUnreadable, nil, nil
	case err != nil:
		return 0, nil, err
	case kid == s.Keys.PrimaryKeyID():
		return SealedCurrent, plain, nil
	}
	return SealedStale, plain, nil
}

// Tally checks env (Check) for a page of a key walk: it is counted under its key in
// page.ByKey and its row named in page.Unreadable when it does not open; stale reports that it
// opens under another key than the primary, to plain.
func (s Sealer) Tally(page *store.KeyPage, rowID, column, env string) (stale bool, plain []byte, err error) {
	return s.TallyRow(page, rowID, rowID, column, env)
}

// TallyRow is Tally for a value sealed for sealRow (SealedTable.SealRow) in the row named
// rowID.
func (s Sealer) TallyRow(page *store.KeyPage, rowID, sealRow, column, env string) (stale bool, plain []byte, err error) {
	state, plain, err := s.Check(sealRow, column, env, page.ByKey)
	if state == SealedUnreadable {
		page.Unreadable = append(page.Unreadable, rowID)
	}
	return state == SealedStale, plain, err
}

// SealJSON seals v encoded as JSON when present, and nothing (nil) otherwise.
func (s Sealer) SealJSON(rowID, column string, v any, present bool) (*string, error) {
	if !present {
		return nil, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return s.Seal(rowID, column, raw)
}

// Open opens the value sealed in column of row rowID (nil when none is stored). A value that
// does not decrypt is a models.CorruptError naming the task and the column only.
func (s Sealer) Open(taskID, rowID, column string, env *string) ([]byte, error) {
	if env == nil || *env == "" {
		return nil, nil
	}
	plain, err := s.Keys.Open(*env, AAD(rowID, column))
	if err != nil {
		if errors.Is(err, keyring.ErrUndecodable) {
			return nil, &models.CorruptError{TaskID: taskID, Reason: column + " does not decrypt"}
		}
		return nil, err
	}
	return plain, nil
}

// SealProtected seals the part of t's protected content that column holds (nil when empty).
func (s Sealer) SealProtected(t *models.Task, column string) (*string, error) {
	p := &t.Protected
	switch column {
	case ColInstructions:
		return s.Seal(t.ID, column, []byte(p.Instructions))
	case ColTaskData:
		return s.Seal(t.ID, column, p.Data)
	case ColForm:
		return s.SealJSON(t.ID, column, p.Form, p.Form != nil)
	case ColInvitationDefs:
		return s.SealJSON(t.ID, column, p.InvitationDefinitions, len(p.InvitationDefinitions) > 0)
	case ColCompletionData:
		return s.Seal(t.ID, column, p.CompletionData)
	}
	return nil, errors.New("storekit: " + column + " is not a protected column")
}

// OpenProtected opens the value sealed in column of task taskID into its part of p. Anything
// that does not decrypt or decode is a models.CorruptError naming the task.
func (s Sealer) OpenProtected(taskID, column string, env *string, p *models.Protected) error {
	corrupt := func(reason string) error { return &models.CorruptError{TaskID: taskID, Reason: reason} }
	plain, err := s.Open(taskID, taskID, column, env)
	if err != nil {
		return err
	}
	switch column {
	case ColInstructions:
		p.Instructions = string(plain)
	case ColTaskData:
		if plain != nil && !json.Valid(plain) {
			return corrupt("task data is not JSON")
		}
		p.Data = plain
	case ColForm:
		if plain != nil {
			p.Form = &models.PinnedForm{}
			if err := json.Unmarshal(plain, p.Form); err != nil {
				return corrupt("form does not decode")
			}
		}
	case ColInvitationDefs:
		if plain != nil {
			if err := json.Unmarshal(plain, &p.InvitationDefinitions); err != nil {
				return corrupt("invitation definitions do not decode")
			}
		}
	case ColCompletionData:
		p.CompletionData = plain
	default:
		return errors.New("storekit: " + column + " is not a protected column")
	}
	return nil
}

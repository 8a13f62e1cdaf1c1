package models

import "context"

// ProtectedParts names parts of a task's protected content. A command tells the store which of
// them its decision reads (ReadingProtected), so the store loads and decrypts only those: a
// claim reads none of the payloads, a completion the form and the task data (issue 13).
type ProtectedParts uint8

// The protected parts, one bit each.
const (
	ReadsInstructions ProtectedParts = 1 << iota
	ReadsData
	ReadsForm
	ReadsInvitations
	ReadsCompletionData

	// ReadsAllProtected is every part: what a Mutate without a hint loads.
	ReadsAllProtected = ReadsInstructions | ReadsData | ReadsForm | ReadsInvitations | ReadsCompletionData
)

// ReadsForTransition is what the transitions that read no payload still read: the invitation
// definitions, which decide whether anyone can pick a task up (hasParticipants) and whether a
// manager may invite (AllowedActions).
const ReadsForTransition = ReadsInvitations

type protectedReadsKey struct{}

// ReadingProtected returns ctx telling Mutate to load only parts of the task's protected
// content. The task handed to the decision then holds the other parts empty; a part the
// decision leaves empty is not written (only changed columns are), so it keeps its stored value.
// A decision must not read a part it did not ask for.
func ReadingProtected(ctx context.Context, parts ProtectedParts) context.Context {
	return context.WithValue(ctx, protectedReadsKey{}, parts)
}

// ProtectedReads is the protected parts ctx asks Mutate to load: every part unless
// ReadingProtected said otherwise.
func ProtectedReads(ctx context.Context) ProtectedParts {
	if p, ok := ctx.Value(protectedReadsKey{}).(ProtectedParts); ok {
		return p
	}
	return ReadsAllProtected
}

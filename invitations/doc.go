// Package invitations serves guests (SPEC 6, 5.3): it issues one-time invitations against a
// task's invitation definitions, hands their raw tokens to dispatchers through the encrypted
// delivery outbox, verifies tokens and codes, and keeps the task-scoped guest sessions.
//
// Only hashes of tokens, codes and session credentials are stored. The raw token and code exist
// in memory at issuance, sealed in the delivery row's payload, and opened for one dispatch
// attempt; nothing else ever sees them.
package invitations

package docstore

import "usertasks/storekit"

// Invitations, their sealed deliveries and guest sessions as stored: the rows both stores keep
// (storekit.InvitationRow, storekit.DeliveryRow, storekit.GuestSessionRow) and their codec
// (storekit.Codec), with what only documents keep. A guest session is its own document from
// the start, the row as it is. Only hashes of the invitation token, the
// code and the session credential are stored; the recipient and the delivery payload (the raw
// token and code) are sealed with the key ring and the associated data every store uses (row
// id "/" column), so a sealed value means the same on both stores.

const (
	invitationCollection   = "user_task_invitations"
	guestSessionCollection = "user_task_guest_sessions"

	colRecipient = storekit.ColRecipient
)

// invitationDoc is an invitation: pending in its task's aggregate, then a document of
// user_task_invitations. Version counts its claimed writes (doc_claim.go).
type invitationDoc struct {
	storekit.InvitationRow `bson:",inline"`
	Version                int64 `bson:"version"`
}

// deliveryDoc is a delivery of the encrypted outbox: pending in its task's aggregate, then a
// document of user_task_deliveries. Version counts its claimed writes.
type deliveryDoc struct {
	storekit.DeliveryRow `bson:",inline"`
	Version              int64 `bson:"version"`
}

package models

// Limits of SPEC 8 and the column sizes of the v1 schema. Every limit has a defined refusal.
const (
	MaxTenantLength        = 64
	MaxProviderLength      = 64
	MaxParticipantIDLength = 255
	MaxDisplayNameLength   = 256
	MaxWorkflowIDLength    = 128
	MaxBookmarkIDLength    = 128
	MaxTitleLength         = 512
	MaxSummaryLength       = 2000
	MaxReferenceLength     = 256
	MaxTaskTypeLength      = 128
	MaxWorkflowNameLength  = 256
	MaxOperationIDLength   = 128
	MaxActionKeyLength     = 64
	MaxActionLabelLength   = 128
	MaxReasonLength        = 1000
	MaxHealthMessageLength = 512

	MaxTags      = 32
	MaxTagLength = 64

	MaxProtectedPayloadBytes = 256 << 10 // each protected payload
	MaxEventMetadataBytes    = 4000      // 4 KiB, held to the portable VARCHAR(4000) bound
	MaxRequestBodyBytes      = 1 << 20
	MaxParticipantsPerTask   = 1000 // candidates + exclusions
	MaxInvitationsPerTask    = 20
	MaxActions               = 20

	DefaultOpenTasksPerTenant = 250_000
	DefaultPageSize           = 50
	MaxPageSize               = 200
	DefaultPriority           = 50
	MinPriority               = 0
	MaxPriority               = 100
)

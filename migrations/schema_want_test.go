package migrations

import "usertasks/migrations/logical"

// The logical schema lives in package logical (the document store derives its collections from
// it too); the tests of this package read it under the names they have always used.
type (
	Type       = logical.Type
	Column     = logical.Column
	Index      = logical.Index
	ForeignKey = logical.ForeignKey
	Table      = logical.Table
)

const (
	Varchar   = logical.Varchar
	Text      = logical.Text
	Integer   = logical.Integer
	BigInt    = logical.BigInt
	Boolean   = logical.Boolean
	Timestamp = logical.Timestamp
	Binary    = logical.Binary
	NotNull   = logical.NotNull
	Null      = logical.Null
)

// Schema returns the logical schema of the latest migration (logical.Schema).
func Schema() []Table { return logical.Schema() }

func index(name string, columns ...string) Index { return Index{Name: name, Columns: columns} }

func column(name string, t Type, length int) Column {
	return Column{Name: name, Type: t, Length: length, Nullable: NotNull}
}

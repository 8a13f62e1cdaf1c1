package docharness

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/storekit"
	"usertasks/storetest"
)

// tamperAttachments applies the attachment tamperings (the SQL harness's statements on the
// documents) and reports whether what was one of them.
func tamperAttachments(t *testing.T, db *mongo.Database, what storetest.Tampering, args ...any) bool {
	t.Helper()
	chunks, atts := db.Collection(storekit.AttachmentChunkTable), db.Collection(storekit.AttachmentTable)
	switch what {
	case storetest.DropChunk:
		if r, err := chunks.DeleteOne(ctx(t), bson.D{{Key: "_id", Value: args[0]}}); err != nil || r.DeletedCount != 1 {
			t.Fatalf("tamper %s: %v, %v", what, r, err)
		}
	case storetest.CopyChunk:
		var from storekit.AttachmentChunkRow
		if err := chunks.FindOne(ctx(t), bson.D{{Key: "_id", Value: args[0]}}).Decode(&from); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		r, err := chunks.UpdateOne(ctx(t), bson.D{{Key: "_id", Value: args[1]}}, bson.D{{Key: "$set", Value: bson.D{
			{Key: storekit.ColChunk, Value: from.ChunkEnc}, {Key: "plain_size", Value: from.PlainSize}}}})
		if err != nil || r.MatchedCount != 1 {
			t.Fatalf("tamper %s: %v, %v", what, r, err)
		}
	case storetest.CorruptAttachmentHash:
		r, err := atts.UpdateOne(ctx(t), bson.D{{Key: "_id", Value: args[0]}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "sha256", Value: strings.Repeat("0", 64)}}}})
		if err != nil || r.MatchedCount != 1 {
			t.Fatalf("tamper %s: %v, %v", what, r, err)
		}
	default:
		return false
	}
	return true
}

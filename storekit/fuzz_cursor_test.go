package storekit

import (
	"errors"
	"slices"
	"testing"
	"time"

	"usertasks/models"
)

// FuzzDecodeCursor reads any string as a cursor for every sort and direction: it is either a
// malformed-request naming the cursor, or a position that encodes back to a cursor decoding to
// the same position.
func FuzzDecodeCursor(f *testing.F) {
	keys := make([]models.SortKey, 0, len(Sorts))
	for k := range Sorts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	at := time.Date(2030, 6, 12, 10, 11, 12, 123456000, time.UTC)
	for i, k := range keys {
		v := SortValue{Time: at, Int: 42, Text: "Ünïcode \"quoted\" \u202e 100%_[x]"}
		if Sorts[k].Nullable && i%2 == 0 {
			v = SortValue{Null: true}
		}
		raw, err := EncodeCursor(k, i%2 == 1, "digest", v, "0190a000-0000-7000-8000-000000000001")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, uint8(i), i%2 == 1, "digest")
	}
	f.Add("eyJ2IjoyfQ", uint8(0), false, "")
	f.Add("!!!", uint8(1), true, "digest")

	f.Fuzz(func(t *testing.T, raw string, sort uint8, desc bool, filters string) {
		key := keys[int(sort)%len(keys)]
		v, id, err := DecodeCursor(raw, key, desc, filters)
		if err != nil {
			var ve *models.ValidationError
			if !errors.As(err, &ve) || models.ErrorCode(err) != models.CodeMalformedRequest || len(ve.Fields) != 1 || ve.Fields[0].Field != "cursor" {
				t.Fatalf("decode %q: error %v is not a malformed-request naming the cursor", raw, err)
			}
			return
		}
		again, err := EncodeCursor(key, desc, filters, v, id)
		if err != nil {
			t.Fatalf("encode the decoded %q: %v", raw, err)
		}
		v2, id2, err := DecodeCursor(again, key, desc, filters)
		if err != nil || id2 != id || v2.Null != v.Null || !v2.Time.Equal(v.Time) || v2.Int != v.Int || v2.Text != v.Text {
			t.Fatalf("round trip of %q: %+v %q, then %+v %q (%v)", raw, v, id, v2, id2, err)
		}
	})
}

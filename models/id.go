package models

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// The domain mints the ids of the rows its transitions create, and models stays standard
// library only, so the UUIDv7 layout of RFC 9562 is written out here rather than imported.
var idClock struct {
	sync.Mutex
	last int64 // unix milliseconds << 12 | sub-millisecond counter of the last id
}

// NewID mints a time-ordered UUIDv7 for a new row: 48 bits of Unix milliseconds, 12 bits of
// sub-millisecond time that also counts up when the clock stands still (so ids minted in order
// sort in order, as keyset pagination expects), and 62 random bits.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[8:]); err != nil {
		panic("models: no randomness for a new id: " + err.Error()) // crypto/rand never fails on supported systems
	}
	ns := time.Now().UnixNano()
	stamp := (ns/1e6)<<12 | (ns%1e6)*4096/1e6
	idClock.Lock()
	if stamp <= idClock.last {
		stamp = idClock.last + 1
	}
	idClock.last = stamp
	idClock.Unlock()

	ms := stamp >> 12
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = 0x70 | byte(stamp>>8)&0x0f
	b[7] = byte(stamp)
	b[8] = 0x80 | b[8]&0x3f // RFC 9562 variant

	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

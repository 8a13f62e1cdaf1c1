package repository

import "usertasks/storekit"

// precision is how finely this store keeps times: SQL timestamps.
const precision = storekit.Microseconds

// codec encodes and decodes the rows both stores keep alike (storekit) as this store keeps
// them: sealed with its key ring, at its precision.
func (s *Store) codec() storekit.Codec {
	return storekit.Codec{Sealer: s.sealer(), Precision: precision}
}

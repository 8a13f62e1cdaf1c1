package docstore

import "usertasks/storekit"

// precision is how finely this store keeps times: BSON dates.
const precision = storekit.Milliseconds

// codec encodes and decodes the rows both stores keep alike (storekit) as this store keeps
// them: sealed with its key ring, at its precision.
func (s *Store) codec() storekit.Codec {
	return storekit.Codec{Sealer: s.sealer(), Precision: precision}
}

// Package storekit is what every task store computes the same way, whatever it stores in: the
// task aggregate's rows (TaskRow and its child rows, tagged for SQL and for documents, which the
// stores embed) and their codec (Codec, whose time precision is the store's), the list cursor
// and the digest of a list's filters (byte for byte, so a cursor of one store reads in
// another), the validation of a list filter and its sort table, the sealing of protected
// values with the corrupt-store mapping, the safe search text, the pure checks and encodings
// of web sessions, web notes, worker runs, health findings and the daily rollup, and the rows
// of the other tables both stores keep alike (invitations, deliveries, guest and web sessions,
// web notes, saved views, worker runs, leases, daily counts) with their codec.
//
// The SQL store (repository) and the document store (docstore) sit on the same floor and do
// not import each other; both import storekit, which imports only models, keyring and the
// standard library. What a store expresses in its own query language (SQL conditions, BSON
// filters) stays in the store.
package storekit

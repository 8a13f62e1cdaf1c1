// Package storekit is what every task store computes the same way, whatever it stores in: the
// rows of every table both stores keep alike (rows.go: TaskRow and its child rows, invitations,
// deliveries, guest and web sessions, web notes, saved views, worker runs, leases, daily
// counts; tagged for SQL and for documents, which the stores embed) and their codec (Codec,
// whose time precision is the store's; the *_codec.go files), the list cursor
// and the digest of a list's filters (byte for byte, so a cursor of one store reads in
// another), the validation of a list filter and its sort table, the sealing of protected
// values with the corrupt-store mapping, the safe search text, the pure checks and encodings
// of web sessions, web notes, worker runs, health findings and the daily rollup, and the audit's
// invariant codes and the sealed tables a key rotation walks (SealedTables).
//
// It also holds the rules both stores decide alike, over the shared rows and a small part each
// store supplies, as River's drivers supply their executors: the audit's per-task invariants and
// its page (Auditor, judging the AuditTask a store read its own way, with the words its findings
// use), one look at a sealed value (Sealer.Check, for the audit and the key rotation; Sealer.Tally
// counts it on a page of the rotation's walk), the retention purge's entry and its page loop (Purge over a store's PurgeSteps, PurgePages), and
// the workers' health group over a store's one health write (HealthWrite).
//
// The SQL store (repository) and the document store (docstore) sit on the same floor and do
// not import each other; both import storekit, which imports only models, keyring, the store
// contract (store) and the standard library. What a store expresses in its own query language
// (SQL conditions, BSON filters), its reads and its transactions stay in the store.
package storekit

package models

// TotalCap is the most a list total counts. A list's total counts at most TotalCap+1 rows and,
// past TotalCap, reports TotalCap with TaskPage.TotalCapped set ("1,000+"): counting every match
// of a filter that matches tens of thousands of tasks (needs attention matches most open tasks)
// took 300 ms at the scale target, while a thousand rows count in a few milliseconds on every
// database (docs/benchmarks.md). Numbers that must be exact, the dashboard's counts, are not
// list totals.
const TotalCap = 1000

// ShortSearchWindow is the most tasks of a list one page of a short search (1–2 characters,
// which no trigram index serves) looks through: the page ends early when it has looked at
// that many, with TaskPage.SearchLimited set, and its total counts the first window's
// matches (storekit.ShortSearch). 1,000 rather than the 5,000 first tried: at a tenth of the
// scale target a window of 5,000 cost 10–30 times a plain page, one of 1,000 one to three
// times (docs/benchmarks.md, "Short search").
const ShortSearchWindow = 1000

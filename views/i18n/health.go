package i18n

// healthRuntimeAnswerAmbiguous is the advisory finding reconciliation records when the
// workflow runtime's answer about a bookmark is unclear. The catalogues describe it already, so
// the pages speak about it from the day the runtime starts reporting it.
const healthRuntimeAnswerAmbiguous = "runtime-answer-ambiguous"

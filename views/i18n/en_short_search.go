package i18n

var englishShortSearch = ShortSearchText{
	Hint:         "1 or 2 characters, and words found in very many tasks, search the list %s tasks at a time; other searches cover all of it.",
	Limited:      "This search looks through the list step by step (1 or 2 characters, or a word found in very many tasks): this page shows what one step found.",
	LimitedEmpty: "No matches in this step of the list.",
	Further:      "Search further",
}

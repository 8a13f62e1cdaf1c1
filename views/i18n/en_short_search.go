package i18n

var englishShortSearch = ShortSearchText{
	Hint:         "1 or 2 characters search the list %s tasks at a time; 3 or more search all of it.",
	Limited:      "A 1 or 2 character search looks through the list step by step: this page shows what one step found.",
	LimitedEmpty: "No matches in this step of the list.",
	Further:      "Search further",
}

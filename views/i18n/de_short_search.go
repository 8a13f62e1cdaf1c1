package i18n

var germanShortSearch = ShortSearchText{
	Hint:         "1 oder 2 Zeichen durchsuchen die Liste in Schritten von %s Aufgaben, ab 3 Zeichen die ganze Liste.",
	Limited:      "Eine Suche mit 1 oder 2 Zeichen geht die Liste schrittweise durch: Diese Seite zeigt, was ein Schritt gefunden hat.",
	LimitedEmpty: "In diesem Schritt der Liste gibt es keine Treffer.",
	Further:      "Weitersuchen",
}

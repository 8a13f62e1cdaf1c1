package i18n

var germanShortSearch = ShortSearchText{
	Hint:         "1 oder 2 Zeichen und sehr häufige Wörter durchsuchen die Liste in Schritten von %s Aufgaben, andere Suchen die ganze Liste.",
	Limited:      "Diese Suche geht die Liste schrittweise durch (1 oder 2 Zeichen oder ein sehr häufiges Wort): Diese Seite zeigt, was ein Schritt gefunden hat.",
	LimitedEmpty: "In diesem Schritt der Liste gibt es keine Treffer.",
	Further:      "Weitersuchen",
}

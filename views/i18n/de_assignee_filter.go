package i18n

var germanAssigneeFilter = AssigneeFilterText{
	Label:      "Zugewiesen an",
	Unassigned: "Nur nicht zugewiesene Aufgaben",
	Clear:      "Alle Bearbeiter zeigen",
	Invalid:    "Der Bearbeiter-Filter dieses Links ist ungültig.",
}

package i18n

var germanTotal = TotalText{Thousands: ".", Decimal: ",", AtLeast: "%s+ Aufgaben"}

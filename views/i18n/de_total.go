package i18n

var germanTotal = TotalText{Thousands: ".", AtLeast: "%s+ Aufgaben"}

package i18n

var englishTotal = TotalText{Thousands: ",", Decimal: ".", AtLeast: "%s+ tasks"}

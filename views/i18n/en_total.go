package i18n

var englishTotal = TotalText{Thousands: ",", AtLeast: "%s+ tasks"}

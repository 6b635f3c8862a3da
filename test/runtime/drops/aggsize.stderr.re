dtx: 80 aggregation drops on CPU [0-9]+
dtx: aggregation updates were dropped: an aggregation's map was full \(raise -x aggsize\)

dtx: \[DTRACEDROP_DYNAMIC\] 2 dynamic variable drops
dtx: dynamic variables were dropped: their space was full \(raise -x dynvarsize\)

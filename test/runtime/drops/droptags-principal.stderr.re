dtx: \[DTRACEDROP_PRINCIPAL\] 7 drops on CPU [0-9]+
dtx: records were dropped: the principal buffer was full \(raise -x bufsize\)

dtx: \[DTRACEDROP_PRINCIPAL\] 2 drops on CPU [0-9]+
dtx: records were dropped: the principal buffer was full \(raise -x bufsize\)

dtx: error on enabled probe ID 2 \(ID 1: dtrace:::BEGIN\): invalid address \(0x[0-9a-f]+\) in action #3 at bcopy-source-bounds.d:\d+:\d+

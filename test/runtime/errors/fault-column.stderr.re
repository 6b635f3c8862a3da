dtx: error on enabled probe ID 2 \(ID 1: dtrace:::BEGIN\): divide-by-zero in action #3 at fault-column.d:17:10
dtx: error on enabled probe ID 3 \(ID 1: dtrace:::BEGIN\): invalid address \(0x[0-9a-f]+\) in action #1 at fault-column.d:22:15

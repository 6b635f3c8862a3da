dtx: error on enabled probe ID 1 \(ID 1: dtrace:::BEGIN\): index out of bounds \(4\) in action #\d+ at index-out-of-bounds\.d:\d+:\d+

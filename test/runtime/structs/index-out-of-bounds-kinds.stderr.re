dtx: error on enabled probe ID 1 \(ID 1: dtrace:::BEGIN\): index out of bounds \(3\) in action #\d+ at index-out-of-bounds-kinds\.d:\d+:\d+
dtx: error on enabled probe ID 2 \(ID 1: dtrace:::BEGIN\): index out of bounds \(2\) in action #\d+ at index-out-of-bounds-kinds\.d:\d+:\d+
dtx: error on enabled probe ID 3 \(ID 1: dtrace:::BEGIN\): index out of bounds \(4\) in action #\d+ at index-out-of-bounds-kinds\.d:\d+:\d+
dtx: error on enabled probe ID 4 \(ID 1: dtrace:::BEGIN\): index out of bounds \(2\) in action #\d+ at index-out-of-bounds-kinds\.d:\d+:\d+

dtx: error on enabled probe ID \d+ \(ID 1: dtrace:::BEGIN\): divide-by-zero in action #\d+ at error-args\.d:\d+:\d+

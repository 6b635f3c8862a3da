dtx: error on enabled probe ID \d+ \(ID 1: dtrace:::BEGIN\): invalid address \(0x10\) in action #\d+ at copyinstr-bad-address\.d:\d+:\d+

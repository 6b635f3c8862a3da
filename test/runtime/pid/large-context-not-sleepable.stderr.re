dtx: probe 'pid[0-9]+:dtx-usdt:dtxtest_cold_call:entry': not a sleepable uprobe program: its clause context is larger than a thread's task storage holds; user memory not resident yet reads as an invalid address
dtx: error on enabled probe ID 1 \(ID [0-9]+: pid[0-9]+:dtx-usdt:dtxtest_cold_call:entry\): invalid address \(0x[0-9a-f]+\) in action #1 at large-context-not-sleepable.d:10:12

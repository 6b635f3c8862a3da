dtx: probe 'pid[0-9]+:dtx-usdt:dtxtest_cold_call:entry': not a sleepable uprobe program: its clauses and arguments read no user memory
dtx: probe 'dtxtest[0-9]+:dtx-usdt:main:cold': a sleepable uprobe program: user memory not resident yet is faulted in

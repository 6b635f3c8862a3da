dtx: probe 'dtxtest[0-9]+:dtx-usdt:main:cold': a sleepable uprobe program: user memory not resident yet is faulted in

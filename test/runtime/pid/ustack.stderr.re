dtx: probe 'pid[0-9]+:dtx-trigger:trigger_ustack_inner:entry': a sleepable uprobe program: user memory not resident yet is faulted in

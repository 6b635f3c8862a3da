dtx: unwind tables of 1 file \(0 without\) before tracing: [0-9]+ of [0-9]+ rows, built in [0-9.]+ s
dtx: probe 'pid[0-9]+:dtx-trigger:trigger_ustack_inner:entry': a sleepable uprobe program: user memory not resident yet is faulted in

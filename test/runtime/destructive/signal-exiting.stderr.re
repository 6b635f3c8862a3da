dtx: warning: signal-exiting\.d:11:2: raise\(\) could not signal pid \d+: Operation not permitted \(BPF may not signal a kernel thread, a process that is exiting, or init\)
dtx: warning: signal-exiting\.d:12:2: stop\(\) could not signal pid \d+: Operation not permitted \(BPF may not signal a kernel thread, a process that is exiting, or init\)

dtx: script 'exit-status-notice\.d' matched 1 probe
dtx: pid \d+ exited with status 1

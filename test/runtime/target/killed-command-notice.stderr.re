dtx: script 'killed-command-notice\.d' matched 1 probe
dtx: pid \d+ terminated by SIGKILL

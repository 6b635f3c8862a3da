dtx: script 'raise-terminates\.d' matched 1 probe
dtx: pid \d+ terminated by SIGUSR1

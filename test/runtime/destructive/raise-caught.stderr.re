dtx: script 'raise-caught\.d' matched 1 probe
dtx: pid \d+ exited with status 3

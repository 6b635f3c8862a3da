no-such-function\.d:3:1: error: probe description pid\$target:a\.out:no_such_function:entry does not match any probes \[D_PDESC_ZERO\]
 3 \| pid\$target:a\.out:no_such_function:entry \{ exit\(0\); \}
   \| \^~+
hint: no function 'no_such_function' in module 'a\.out' of pid \d+
hint: dtx -l lists the probes; -Z permits descriptions that match nothing

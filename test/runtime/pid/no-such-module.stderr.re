no-such-module\.d:3:1: error: probe description pid\$target:libnothere\.so:malloc:entry does not match any probes \[D_PDESC_ZERO\]
 3 \| pid\$target:libnothere\.so:malloc:entry \{ exit\(0\); \}
   \| \^~+
hint: pid \d+ has no module 'libnothere\.so'; its modules are a\.out \(dtx-funcs\), libc\.so\.6, ld-linux-x86-64\.so\.2
hint: dtx -l lists the probes; -Z permits descriptions that match nothing

offset-inside-instruction\.d:4:1: error: probe 'pid\d+:a\.out:dtx_add:1': offset 0x1 in dtx_add: 0x1 is inside the instruction at 0x0 \(3 bytes\) \[D_PROBE_SPEC\]
 4 \| pid\$target:a\.out:dtx_add:1 \{ exit\(0\); \}
   \| \^~+

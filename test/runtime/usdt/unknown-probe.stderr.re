unknown-probe\.d:3:1: error: probe description dtxtest\$target:::no-such-probe does not match any probes \[D_PDESC_ZERO\]
 3 \| dtxtest\$target:::no-such-probe \{ exit\(0\); \}
   \| \^~+
hint: pid \d+ has no USDT probe 'dtxtest\d+:::no-such-probe'; its probes are dtxlib:lib-call \(libdtx-usdt-lib\.so\), dtxtest:cold \(dtx-usdt\), dtxtest:cold-thread \(dtx-usdt\), dtxtest:guarded \(dtx-usdt\), dtxtest:loop-start \(dtx-usdt\), dtxtest:tick \(dtx-usdt\)
hint: dtx -l lists the probes; -Z permits descriptions that match nothing

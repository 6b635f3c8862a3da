dtx: error on enabled probe ID 1 \(ID 4: sdt:raw_syscalls::sys_enter\): invalid address \(0x0\) in action #1 at raw-syscalls-stack-error\.d:13:8

              vmlinux`__traceiter_sys_enter\+0x[0-9a-f]+
              vmlinux`syscall_trace_enter\+0x[0-9a-f]+


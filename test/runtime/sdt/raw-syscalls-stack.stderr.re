
              vmlinux`__traceiter_sys_enter\+0x[0-9a-f]+
              vmlinux`syscall_trace_enter\+0x[0-9a-f]+

              vmlinux`__traceiter_sys_enter\+0x[0-9a-f]+
              vmlinux`syscall_trace_enter\+0x[0-9a-f]+


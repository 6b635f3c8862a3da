
              vmlinux`[A-Za-z_][A-Za-z0-9_.]*(\+0x[0-9a-f]+)?


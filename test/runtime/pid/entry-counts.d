/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 5' */
/* dtx-requires: uprobes */
/* Every dtx_* function of the executable (a.out), local (static dtx_scale)
   and global, with the PLT stub of its strlen calls and libc's getpid. */
pid$target:a.out:dtx_*:entry,
pid$target:a.out:strlen@plt:entry,
pid$target:libc.so.6:getpid:entry
{
	@[probemod == "libc.so.6" ? "libc" : "a.out", probefunc] = count();
}

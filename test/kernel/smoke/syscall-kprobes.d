/* dtx-args: -q -c '@TRIGGER@ getpid 7' */
/* dtx-requires: kprobes */
/* The harness' own smoke test: runs only where the kernel has kprobes (in
   the VM, not on our hosts), with a provider that works everywhere, so that
   it proves the case runs in the guest end to end: the trigger's 7 getpid
   calls. */
syscall::getpid:entry
/pid == $target/
{
	@calls = count();
}

syscall::getpid:return
/pid == $target/
{
	@returns[probefunc, arg0 == pid] = count();
}

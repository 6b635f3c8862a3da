/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 3 getpid 5' */
/*
 * The whole syscalls group (some 700 tracepoints) enabled at once: served
 * by two raw tracepoint programs (sys_enter, sys_exit) with a table from
 * the call's number to its probe, so it attaches and detaches at once; each
 * event still names its own call, in probename and in arg0 (the call's number).
 */

sdt:syscalls::
/pid == $target && (probename == "sys_enter_openat" || probename == "sys_exit_openat" ||
    probename == "sys_enter_getpid" || probename == "sys_exit_close")/
{
	@[probename, arg0] = count();
}

/* dtx-args: -q -c '@TRIGGER@ ustack 1 sleep 20' */
/*
 * jstack() is ustack() (no Java VM on Linux names its frames for dtrace)
 * with the jstackframes option's depth: here 2 of dtx-trigger's three known
 * frames; jstack(N) takes N.
 */
#pragma D option jstackframes=2

syscall::getpid:entry
/pid == $target/
{
	jstack();
	jstack(1);
	jstack(10, 512);
}

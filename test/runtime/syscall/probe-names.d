/* dtx-args: -q -c '@TRIGGER@ getpid 2' */
syscall::getpid:entry,
syscall::getpid:return
/pid == $target/
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
}

/* dtx-args: -q -c '@TRIGGER@ getpid 20' */
/*
 * A system call probe named twice in one clause's descriptions runs the
 * clause twice per call; once in another clause.
 */
syscall::getpid:entry, syscall::getpi*:entry
/pid == $target/
{
	twice++;
}

syscall::getpid:entry
/pid == $target/
{
	once++;
}

END
{
	printf("%d %d\n", twice, once);
}

/* dtx-args: -q -x aggsortkey -c '@TRIGGER@ children-exit 7' */
/*
 * curpsinfo's pr_wstat is a process's wait status as it exits (a child that
 * exits 7: 7 << 8; one killed by SIGKILL: 9); pr_size is its address space
 * in kilobytes.
 */

BEGIN
{
	printf("dtx has a size: %d\n", curpsinfo->pr_size > 0);
}

proc:::exit
/ppid == $target/
{
	@[curpsinfo->pr_wstat] = count();
}

END
{
	printa("wstat %d: %@d\n", @);
}

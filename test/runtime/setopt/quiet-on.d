/* dtx-cpu: 0 */
/*
 * setopt("quiet") while tracing: the clause that sets it already printed its
 * probe line, but not the newline after it (dtrace checks quiet again at the
 * end of the record); later records print only what they trace.
 */

BEGIN
{
	setopt("quiet");
}

BEGIN
{
	printf("quiet now\n");
	trace(7);
	exit(0);
}

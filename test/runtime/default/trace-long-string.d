/* dtx-cpu: 0 */
/* A string longer than its 33 columns prints whole, then nothing after it. */

BEGIN
{
	trace("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	trace("end");
	exit(0);
}

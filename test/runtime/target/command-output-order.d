/* dtx-args: -q -c 'echo command' */
/*
 * The command is held before exec until every probe is attached and BEGIN's
 * output is out, so its own output comes between BEGIN's and END's.
 */

BEGIN
{
	printf("begin\n");
}

END
{
	printf("end\n");
}

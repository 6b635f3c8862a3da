/* dtx-requires: btf */
/* dtx-args: -q */
/*
 * d_path() of a pointer that is not a struct path is an invalid address,
 * as in dtrace, not an empty path; the probe's next clause runs.
 */

BEGIN
{
	printf("%s\n", d_path((struct path *)8));
}

BEGIN
{
	printf("%s\n", d_path(&curthread->fs->root));
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}

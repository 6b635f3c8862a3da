/* dtx-args: -q */
/* nspec is from 1 to 1024: each speculation is a slot speculation() searches. */
#pragma D option nspec=2000

BEGIN
{
	exit(0);
}

/* dtx-args: -q */
/* #pragma D option destructive allows destructive actions as -w does. */
#pragma D option destructive

BEGIN
{
	system("echo allowed by the pragma");
	exit(0);
}

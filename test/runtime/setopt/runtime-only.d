/*
 * Options fixed once tracing starts (buffer and string sizes, frame counts)
 * cannot be set by setopt(): dtrace's "Operation illegal when tracing is
 * active", whatever the value.
 */

#pragma D option quiet

BEGIN
{
	setopt("strsize", "16");
	setopt("nspec", "bogus");
	printf("%s\n", "a string longer than sixteen bytes");
	exit(0);
}

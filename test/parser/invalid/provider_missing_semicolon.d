/* invalid: no ; after the closing brace of a provider definition */

provider myapp {
	probe start(int, char *);
	probe done(int);
}

BEGIN
{
	exit(0);
}

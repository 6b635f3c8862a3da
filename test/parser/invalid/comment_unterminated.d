/* invalid: a block comment is still open at the end of the file */

BEGIN
{
	exit(0);
}

/* this comment never ends

END
{
	trace(1);
}

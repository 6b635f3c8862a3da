/* invalid: a block comment opens another block comment inside it */

/* outer comment /* inner opener */

BEGIN
{
	exit(0);
}

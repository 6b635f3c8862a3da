/* dtx-args: -q */
/* A computed uregs[] index out of range is an illegal operation. */

BEGIN
{
	this->i = 26;
	trace(uregs[this->i]);
}

BEGIN
{
	exit(0);
}

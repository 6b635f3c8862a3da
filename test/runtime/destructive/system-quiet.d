/* dtx-args: -q -w */
/* system() runs its formatted command from the consumer, in order. */

BEGIN
{
	this->a = 9;
	this->b = -2;
	system("echo %d %d", this->a, this->b);
	system("echo %d", ++this->a);
	system("echo %d", ++this->a);
	system("echo %s %d", "last", ++this->a);
	exit(0);
}

/* dtx-args: -q */
/*
 * (string) of a pointer is the string at that address, as stringof() is:
 * alloca()'d memory and a char array of the kernel's.
 */

BEGIN
{
	p = (char *)alloca(8);
	p[0] = 'h';
	p[1] = 'i';
	p[2] = 0;
	printf("%s %s\n", (string)p, stringof(p));
	printf("%d\n", strlen((string)curthread->comm) > 0);
	exit(0);
}

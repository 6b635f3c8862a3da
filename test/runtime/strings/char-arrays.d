/* dtx-args: -q */
/*
 * A string is an array of char, as in dtrace: s[i] is a char of a global,
 * a thread-local, a clause-local or an associative array's element; s + n
 * and n + s are the string from byte n on; (string) makes a string of a
 * char array.
 */

BEGIN
{
	s = "hello";
	self->t = "ABCDEFG";
	this->u = "xyz";
	a[1234] = "array";
	printf("%c %c %d\n", s[0], s[4], s[5]);
	printf("%c %c %c\n", self->t[1], this->u[2], a[1234][3]);
	printf("%s|%s|%s|%s\n", s + 2, 1 + s, s + 5, s + 100);
	printf("%s\n", (string)curthread->comm);
	exit(0);
}

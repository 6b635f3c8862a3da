/* dtx-args: -q */
/*
 * Associative arrays with tuple keys; a missing element reads as 0;
 * assigning 0 deletes an element.
 */

BEGIN
{
	a["x", 1] = 10;
	a["x", 2] = 20;
	a["y", 1] = 30;
	printf("%d %d %d %d\n", a["x", 1], a["x", 2], a["y", 1], a["y", 2]);
	a["x", 2] = 0;
	printf("%d %d\n", a["x", 2], a["x", 1]);
	names[1] = "one";
	names[2] = "two";
	printf("%s %s\n", names[2], names[1]);
	exit(0);
}

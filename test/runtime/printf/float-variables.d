/* dtx-args: -q */
/*
 * Variables declared float or double print as floating point with %e %E %f
 * %g %G, as in dtrace: never assigned, they are 0. A double and a float
 * read from memory print their values.
 */

float f;
double d;

BEGIN
{
	printf("%f %f\n", f, d);
	printf("%e %E\n", f, d);
	printf("%g %G\n", d, f);
	printf("%d %d\n", sizeof(f), sizeof(d));
	p = (uint64_t *)alloca(8);
	*p = 0x3ff8000000000000;
	printf("%f\n", *(double *)p);
	*p = 0x40490fdb;
	printf("%.5f\n", *(float *)p);
	exit(0);
}

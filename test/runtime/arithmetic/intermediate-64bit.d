/* dtx-args: -q */
/*
 * Integer expressions are computed in 64 bits and cut to their type only
 * where the value is stored or recorded: j * j / 1000 with an int j of
 * 100000 is 10000000 (the product, 10^10, is not wrapped to an int first),
 * in every kind of variable; the product itself, recorded as an int, shows
 * its low 32 bits. An int one past INT_MAX is still positive until stored.
 */

long wide;

BEGIN
{
	j = 100000;
	j = j * j / 1000;
	this->j = 100000;
	this->j = this->j * this->j / 1000;
	self->j = 100000;
	self->j = self->j * self->j / 1000;
	a[1] = 100000;
	a[1] = a[1] * a[1] / 1000;
	printf("%d %d %d %d\n", j, this->j, self->j, a[1]);

	k = 100000;
	trace(k * k);
	printf(" %d\n", k * k);

	x = 2147483647;
	wide = x + 1;
	printf("%d %d %d %d\n", x + 1 > 0, (x + 1) / 2, wide, x + 1);
	wide = x * 4;
	printf("%d %d\n", wide, (x + x) / x);
	self->j = 0;
	exit(0);
}

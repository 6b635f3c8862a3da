/* dtx-args: -q */
/*
 * Compound assignments compute in 64 bits and store the result cut to the
 * variable's type: the same in a global, a thread-local, a clause-local and
 * an associative array element; every operator.
 */

char c;
short s;
int i;
unsigned char uc;
unsigned int ui;
unsigned long ul;
self char c;
this char c;
char ac[int];

BEGIN
{
	c = 100;
	c += 200;
	self->c = 100;
	self->c += 200;
	this->c = 100;
	this->c += 200;
	ac[1] = 100;
	ac[1] += 200;
	printf("%d %d %d %d\n", c, self->c, this->c, ac[1]);

	c = -128;
	c -= 1;
	self->c = -128;
	self->c -= 1;
	this->c = -128;
	this->c -= 1;
	ac[2] = -128;
	ac[2] -= 1;
	printf("%d %d %d %d\n", c, self->c, this->c, ac[2]);

	s = 100;
	s *= 1000;
	ui = 3;
	ui -= 5;
	i = 1;
	i <<= 31;
	ul = 0x8000000000000000;
	ul >>= 63;
	printf("%d %u %d %u\n", s, ui, i, ul);

	i = (int)0x80000000;
	i /= -1;
	uc = 0;
	uc |= 0x1ff;
	s = 0;
	s ^= 0xffff;
	printf("%d %u %d\n", i, uc, s);

	i = 19;
	i %= -5;
	uc = 255;
	uc &= 0x10f;
	ui = 0xffffffff;
	ui *= ui;
	printf("%d %u %u\n", i, uc, ui);
	self->c = 0;
	exit(0);
}

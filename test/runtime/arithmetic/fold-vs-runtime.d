/* dtx-args: -q -C */
/*
 * The same expressions folded by the compiler (constant operands) and
 * computed at run time (the operands in variables of the same types): each
 * line shows both, and they agree.
 */

#define E(folded, runtime) printf("%d %d\n", folded, runtime)

BEGIN
{
	this->i7 = 7;
	this->im2 = -2;
	this->im7 = -7;
	this->i3 = 3;
	this->i100k = 100000;
	this->i1m = 1000000;
	this->c200 = (char)200;
	this->uc255 = (unsigned char)255;
	this->u8 = (unsigned int)-8;
	this->imin = (int)0x80000000;
	this->im1 = -1;
	this->lmax = 0x7fffffffffffffff;
	this->s1 = (short)-1;
	this->i19 = 19;
	this->im19 = -19;
	this->im5 = -5;
	this->i5 = 5;
	this->u10 = 10u;
	this->c1 = (char)1;

	E(7 / -2, this->i7 / this->im2);
	E(-7 % 3, this->im7 % this->i3);
	E(100000 * 100000 / 1000, this->i100k * this->i100k / 1000);
	E(1000000 * 1000000, this->i1m * this->i1m);
	E((char)200 + 1, this->c200 + 1);
	E((unsigned char)255 * 2, this->uc255 * 2);
	E((unsigned int)-8 / 3, this->u8 / 3);
	E((int)0x80000000 / -1 > 0, this->imin / this->im1 > 0);
	E(0x7fffffffffffffff + 1 < 0, this->lmax + 1 < 0);
	E((short)-1 * (short)-1, this->s1 * this->s1);
	E(19 % -5, this->i19 % this->im5);
	E(-19 % 5, this->im19 % this->i5);
	E(5 - 10u, this->i5 - this->u10);
	E((long)(int)0xfffffffe, (long)(int)(this->u10 - 12));
	E((unsigned long)(unsigned int)-1, (unsigned long)(unsigned int)this->im1);
	E(1 << 40 > 0, this->c1 << 40 > 0);
	exit(0);
}

/* integer constants: decimal, octal, hexadecimal in both cases, every suffix spelling, and the 64-bit limits */

BEGIN
{
	dec = 42;
	zero = 0;
	oct = 0755;
	octzero = 00;
	hexl = 0xdeadbeef;
	hexu = 0XDEADBEEF;
	hexmix = 0xAbCd;
	u1 = 42u;
	u2 = 42U;
	l1 = 42l;
	l2 = 42L;
	ul1 = 42ul;
	ul2 = 42UL;
	ul3 = 42uL;
	ul4 = 42Ul;
	ll1 = 42ll;
	ll2 = 42LL;
	ull1 = 42ull;
	ull2 = 42ULL;
	ull3 = 42uLL;
	ull4 = 42Ull;
	hexsuf = 0xffUL;
	octsuf = 0777u;
	max64 = 0xffffffffffffffff;
	max64dec = 18446744073709551615ULL;
	maxs64 = 9223372036854775807LL;
	min32 = -2147483648;
	big = 4294967296;
	printf("%d %d %o %x %X %u %d\n", dec, zero, oct, hexl, hexu, max64, min32);
	exit(0);
}

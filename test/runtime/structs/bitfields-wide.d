/* dtx-args: -q */
/*
 * Bit-fields of many widths up to 64, at offsets that are not byte
 * boundaries: the largest value each can hold, a value one past it (which
 * wraps to 0), the most negative value of a signed 63-bit field, and stores
 * that leave the neighbouring fields unchanged.
 */

struct wide {
	unsigned char lo : 3;
	unsigned long mid : 61;
	unsigned long full : 64;
	long neg : 63;
	unsigned int odd : 17;
	int sgn : 31;
};

struct wide w;

BEGIN
{
	w.lo = 7;
	w.mid = (1UL << 61) - 1;
	w.full = 0xffffffffffffffff;
	w.neg = -(1L << 62);
	w.odd = 0x1ffff;
	w.sgn = -(1 << 30);
	printf("%u %u %u %d %u %d\n", w.lo, w.mid, w.full, w.neg, w.odd, w.sgn);
	w.mid = 0;
	w.sgn = (1 << 30) - 1;
	printf("%u %u %u %d %u %d\n", w.lo, w.mid, w.full, w.neg, w.odd, w.sgn);
	w.lo = 0;
	w.mid = (1UL << 61) - 1;
	w.mid = w.mid + 1;
	w.odd = w.odd + 2;
	w.full = w.full + 1;
	w.neg = w.neg - 1;
	printf("%u %u %u %d %u %d\n", w.lo, w.mid, w.full, w.neg, w.odd, w.sgn);
	exit(0);
}

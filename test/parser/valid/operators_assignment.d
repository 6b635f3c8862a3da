/* every assignment operator, right associativity of assignment, and assignment as a value */

BEGIN
{
	x = 10;
	x += 5;
	x -= 3;
	x *= 4;
	x /= 2;
	x %= 7;
	x <<= 3;
	x >>= 1;
	x &= 0xff;
	x |= 0x100;
	x ^= 0x0f;
	a = b = c = 7;
	a += b -= 2;
	self->v = this->w = x;
	arr[0] = arr[1] = 3;
	y = (z = 4) + 1;
	printf("%d %d %d %d %d %d\n", x, a, b, c, y, z);
	exit(0);
}

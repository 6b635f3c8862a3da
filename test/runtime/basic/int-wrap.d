/* dtx-args: -q */
/* Integer arithmetic wraps around as in C, at the width of the type. */

BEGIN
{
	i = 2147483647;
	i++;
	printf("%d\n", i);

	u = (uint32_t)0;
	u--;
	printf("%u\n", u);

	c = (uint8_t)255;
	c++;
	printf("%d\n", c);

	l = 0x7fffffffffffffff;
	l++;
	printf("%d\n", l);

	printf("%d %u\n", (int8_t)200, (uint16_t)-1);
	printf("%d\n", (int)4294967297);
	exit(0);
}

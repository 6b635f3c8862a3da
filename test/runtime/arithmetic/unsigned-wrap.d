/* dtx-args: -q */
/*
 * Unsigned variables of every width wrap modulo 2^width when stored: below
 * zero, past the maximum by +=, *=; an unsigned int one past its maximum is
 * 2^32 in the expression (64-bit arithmetic) and 0 once stored or recorded;
 * an unsigned long wraps in the expression too.
 */

unsigned char uc;
unsigned short us;
unsigned int ui;
unsigned long ul;

BEGIN
{
	uc = 0;
	uc = uc - 1;
	us = 0;
	us = us - 1;
	ui = 0;
	ui = ui - 1;
	ul = 0;
	ul = ul - 1;
	printf("%u %u %u %u\n", uc, us, ui, ul);

	uc = 255;
	uc += 2;
	us = 65535;
	us *= 3;
	ui = 4294967295;
	ui += ui;
	ul = 18446744073709551615;
	ul += 2;
	printf("%u %u %u %u\n", uc, us, ui, ul);

	ui = 4294967295;
	printf("%d %u ", ui + 1 > ui, ui + 1);
	ui = ui + 1;
	printf("%u\n", ui);

	ul = 18446744073709551615;
	printf("%d %d %u\n", ul + 1 == 0, ul + 1 > ul, ul / 2);
	exit(0);
}

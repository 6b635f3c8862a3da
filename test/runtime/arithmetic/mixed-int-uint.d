/* dtx-args: -q */
/* dtx-xfail: dtrace does not convert an int operand to unsigned int: it compares and divides the 64-bit registers, where a negative int is sign-extended and an unsigned int zero-extended; dtx converts the int first, as C does (codegen/lower_expr.cpp, codegen/sema.cpp integer_constant) */
/*
 * An int and an unsigned int meet in the unsigned int type, but D converts
 * neither operand: both are held in 64-bit registers, -1 as
 * 0xffffffffffffffff and 4294967295 as 0x00000000ffffffff. So they are not
 * equal, -1 is the greater, and -7 / 7u divides 2^64 - 7 (recorded as an
 * unsigned int: its low 32 bits). Constants fold the same way.
 */

BEGIN
{
	i = -1;
	u = (unsigned int)0xffffffff;
	m7 = -7;
	seven = 7u;
	printf("%d %d %u %u\n", i == u, i > u, m7 / seven, m7 % seven);
	printf("%d %d %u %u\n", -1 == 0xffffffff, -1 > 0xffffffff, -7 / 7u, -7 % 7u);
	exit(0);
}

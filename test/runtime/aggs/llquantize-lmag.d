/* dtx-args: -q */
/*
 * llquantize() with a low magnitude above 0 (factor 2, magnitudes 2 to 4,
 * 4 steps): values below factor^lmag fall into the "< 4" bucket.
 */

BEGIN
{
	@ll = llquantize(1, 2, 2, 4, 4);
	@ll = llquantize(5, 2, 2, 4, 4);
	@ll = llquantize(7, 2, 2, 4, 4);
	@ll = llquantize(8, 2, 2, 4, 4);
	@ll = llquantize(20, 2, 2, 4, 4);
	@ll = llquantize(20, 2, 2, 4, 4);
	@ll = llquantize(40, 2, 2, 4, 4);
	exit(0);
}

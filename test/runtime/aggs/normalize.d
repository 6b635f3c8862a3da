/* dtx-args: -q */
/* normalize() divides what is printed; denormalize() undoes it. */

BEGIN
{
	@a = sum(1000);
	normalize(@a, 10);
	printa(@a);
	denormalize(@a);
	printa(@a);
	@c["x"] = sum(50);
	@c["y"] = sum(7);
	normalize(@c, 5);
	exit(0);
}

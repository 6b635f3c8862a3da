/* dtx-args: -q */
/*
 * setopt("aggsortkey") between two printa() of one aggregation: by value,
 * then by key; setopt("aggsortkey", "") goes back to values.
 */

BEGIN
{
	@["b"] = sum(1);
	@["c"] = sum(2);
	@["a"] = sum(3);
	printa(@);
	setopt("aggsortkey");
}

BEGIN
{
	printa(@);
	setopt("aggsortkey", "");
}

BEGIN
{
	printa(@);
	exit(0);
}

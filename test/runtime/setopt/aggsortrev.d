/* dtx-args: -q */
/* setopt("aggsortrev") reverses the next printa(); "no" undoes it. */

BEGIN
{
	@[1] = count();
	@[2] = count();
	@[2] = count();
	@[3] = count();
	@[3] = count();
	@[3] = count();
	setopt("aggsortrev");
}

BEGIN
{
	printa(@);
	setopt("aggsortrev", "no");
}

BEGIN
{
	printa(@);
	exit(0);
}

/* dtx-args: -q */
/*
 * setopt() takes strings computed as the probe fires, for the option and
 * for its value, as dtrace does.
 */

BEGIN
{
	this->name = strjoin("aggsort", "rev");
	setopt(this->name);
	@[1] = count();
	@[2] = count();
	@[2] = count();
	setopt("quiet", strjoin("y", "es"));
	exit(0);
}

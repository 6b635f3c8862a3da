/* invalid: an inline definition must have = and a value */

inline int MAX;

BEGIN
{
	exit(0);
}

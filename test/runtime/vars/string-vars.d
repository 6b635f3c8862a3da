/* dtx-args: -q */
/*
 * Strings in global, thread-local and clause-local variables; comparisons
 * are by bytes (so "B" < "a" and "ab" < "abc"), with the empty string first.
 */

BEGIN
{
	a = "ab";
	self->b = "abc";
	this->c = "B";
	printf("%d %d %d %d\n", a < self->b, self->b > a, this->c < a, "" < this->c);
	printf("%d %d %d %d\n", a == "ab", a != "ab", a <= "ab", self->b >= "abd");
	a = self->b;
	self->b = "";
	printf("[%s][%s][%s]\n", a, self->b, this->c);
	printf("%s\n", a == "abc" ? "equal" : "different");
	exit(0);
}

/* invalid: the operand of xlate must be in parentheses */

struct in {
	int x;
};

struct out {
	int a;
};

translator struct out < struct in *p > {
	a = p->x;
};

BEGIN
{
	this->in = (struct in *)arg0;
	this->o = xlate <struct out *> this->in;
}

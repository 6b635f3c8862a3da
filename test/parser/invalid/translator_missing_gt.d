/* invalid: the translator input declaration is not closed by > */

struct in {
	int x;
};

struct out {
	int a;
};

translator struct out < struct in *p {
	a = p->x;
};

BEGIN
{
	exit(0);
}

/* bitfields: named, unnamed padding, zero width, in structs and unions, mixed with ordinary members */

struct flags {
	unsigned int ready : 1;
	unsigned int error : 1;
	unsigned int : 2;
	unsigned int level : 4;
	int signed_field : 3;
	unsigned int : 0;
	unsigned int next_word : 8;
	char tag;
};

union packed {
	struct flags f;
	unsigned int word;
};

struct flags gflags;

BEGIN
{
	gflags.ready = 1;
	gflags.level = 9;
	printf("%d %d %d\n", gflags.ready, gflags.level, sizeof(union packed));
	exit(0);
}

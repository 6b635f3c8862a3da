/* dtx-args: -q */
/* if/else, with and without braces, chained. */

BEGIN
{
	x = 3;
	if (x > 2) {
		printf("big\n");
	} else {
		printf("small\n");
	}

	if (x == 0)
		printf("zero\n");
	else if (x == 3)
		printf("three\n");
	else
		printf("other\n");

	if (x < 0) {
		printf("negative\n");
	}

	if (x != 3) {
		printf("not three\n");
	} else {
		if (x % 2 == 1)
			printf("odd\n");
	}
	exit(0);
}

/* the anonymous aggregation @ used with printa, aggregations keyed by literals, mixed key types and stacks */

BEGIN
{
	@ = count();
	@literal["literal key"] = count();
	@mixed["str", 1, 'c', 2ULL] = sum(10);
	@stacks[stack(), "kernel"] = count();
	printa(@);
	printa(@mixed);
	exit(0);
}

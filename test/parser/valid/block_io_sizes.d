/* block I/O through tracepoints: request sizes by device and direction, with latency from issue to completion */

sdt:block::block_rq_issue
{
	start[args[0], args[1]] = timestamp;	/* dev, sector: sdt args[] are the event's fields */
	@sizes[args[0]] = quantize(args[3]);	/* bytes by dev */
}

sdt:block::block_rq_complete
/start[args[0], args[1]]/
{
	@latency_us[args[0]] = quantize((timestamp - start[args[0], args[1]]) / 1000);
	start[args[0], args[1]] = 0;
}

tick-5s
{
	printa(@sizes);
	printa(@latency_us);
	exit(0);
}

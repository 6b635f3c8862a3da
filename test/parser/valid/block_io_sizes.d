/* block I/O through tracepoints: request sizes by device and direction, with latency from issue to completion */

sdt:block::block_rq_issue
{
	start[args[0]->dev, args[0]->sector] = timestamp;
	@sizes[args[0]->rwbs[0] == 'W' ? "write" : "read"] = quantize(args[0]->bytes);
}

sdt:block::block_rq_complete
/start[args[0]->dev, args[0]->sector]/
{
	@latency_us[args[0]->dev] = quantize((timestamp - start[args[0]->dev, args[0]->sector]) / 1000);
	start[args[0]->dev, args[0]->sector] = 0;
}

tick-5s
{
	printa(@sizes);
	printa(@latency_us);
	exit(0);
}

/*
 * lockstat's acquire and release probes fire on every acquisition, where
 * Linux has no tracepoint: naming one is an error that says so.
 */
lockstat:::spin-acquire
{
}

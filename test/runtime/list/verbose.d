/* dtx-args: -lv */
/*
 * Stability attributes and argument types: dtrace's are Stable, profile's
 * Evolving; profile probes have the kernel and the user PC as arguments.
 */
dtrace:::BEGIN,
profile:::profile-97
{
}

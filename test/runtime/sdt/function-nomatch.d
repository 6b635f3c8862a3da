/* sdt probes have no function: naming one matches nothing. */
sdt:sched:schedule:sched_switch
{
}

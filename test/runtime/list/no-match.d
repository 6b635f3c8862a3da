/* dtx-args: -l */
/*
 * A description that matches nothing is reported after the listing, which
 * still shows the header and the probes the other descriptions match; the
 * exit status is 1.
 */
nosuch:::probe,
dtrace:::END
{
}

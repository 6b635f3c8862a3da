/* dtx-args: -l */
/*
 * Every probe of the dtrace and profile providers, which come first in the
 * listing: BEGIN, END and ERROR are 1, 2, 3. Both descriptions of a clause
 * count, each probe is listed once, sorted by ID.
 */
profile:::,
dtrace:::
{
}

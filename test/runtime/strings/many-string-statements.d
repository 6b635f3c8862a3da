/*
 * A clause's statements reuse the scratch their strings were made in: 32
 * statements of four strjoin()s each (about 1 KiB of strings apiece) fit in
 * one clause, as in dtrace, where all at once would pass the 32 KiB limit.
 */
#pragma D option quiet

BEGIN
{
	s = "left";
	t = "right";
	n = 0;
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "1"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "2"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "3"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "4"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "5"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "6"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "7"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "8"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "9"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "10"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "11"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "12"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "13"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "14"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "15"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "16"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "17"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "18"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "19"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "20"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "21"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "22"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "23"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "24"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "25"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "26"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "27"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "28"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "29"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "30"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "31"))));
	n += strlen(strjoin(strjoin(s, t), strjoin(t, strjoin(s, "32"))));
	printf("%d\n", n);
	exit(0);
}

/* clause forms: description only with body, with predicate, empty body, body and predicate on one line */

BEGIN { }

syscall::read:entry { @a = count(); }

syscall::write:entry /pid == 1/ { @b = count(); }

syscall::close:entry
/arg0 > 2/
{
}

syscall::openat:entry/execname=="init"/{@c=count();}

END
{
	printa(@a);
	printa(@b);
	printa(@c);
}

/* unusual but legal layout: everything on one line, tabs and form feeds, probe list and predicate split over lines */
BEGIN{x=1;y=2;}syscall::read:entry/x/{@a=count();}syscall::write:entry{@b=sum(arg2)}
	syscall::close:entry	,	syscall::dup:entry	
	/
	y
	==
	2
	/
	{
		@c
		[
		probefunc
		]
		=
		count
		(
		)
		;
	}
END	{ printa(@a); printa(@b); printa(@c); }
tick-1s{exit(0);}

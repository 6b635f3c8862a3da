/* address-to-symbol functions as aggregation keys: func, sym, mod, ufunc, usym, umod, uaddr */

profile-997
/arg0/
{
	@kfunc[func(arg0)] = count();
	@ksym[sym(arg0)] = count();
	@kmod[mod(arg0)] = count();
}

profile-997
/arg1/
{
	@ufunc[ufunc(arg1)] = count();
	@usym[usym(arg1)] = count();
	@umod[umod(arg1)] = count();
	@uaddr[uaddr(arg1)] = count();
}

END
{
	printa("%-40a %@8d\n", @kfunc);
	printa("%-40A %@8d\n", @ufunc);
}

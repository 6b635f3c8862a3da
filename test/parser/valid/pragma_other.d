/* other #pragma D directives: depends_on (library, module, provider), binding, attributes, and indented control lines */

#pragma D depends_on library net.d
#pragma D depends_on module vmlinux
#pragma D depends_on provider syscall

inline int MY_EPERM = 1;
#pragma D binding "1.0" MY_EPERM

inline int MY_ENOENT = 2;
#pragma D binding "1.1" MY_ENOENT
#pragma D attributes Evolving/Evolving/Common MY_ENOENT

  #pragma D option quiet

syscall::openat:return
/errno == MY_ENOENT || errno == MY_EPERM/
{
	@missing[execname] = count();
}

/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * What is derived from an alloca() pointer is one too, and copyinto() takes
 * it: a cast, p + n, &p[i], &s->member, ?: of two of them, and a variable
 * (global or this->) that holds them.
 */

struct pair { char first[4]; char second[4]; };

syscall::openat:entry
/pid == $target/
{
	base = (char *)alloca(16);
	this->pair = (struct pair *)alloca(sizeof (struct pair));
	copyinto(arg1, 1, base);
	copyinto(arg1 + 1, 1, base + 1);
	copyinto(arg1 + 2, 1, &base[2]);
	copyinto(arg1 + 3, 3, (void *)&this->pair->second);
	this->either = arg0 ? base + 3 : &base[3];
	copyinto(arg1 + 4, 1, this->either);
	printf("%s %s\n", stringof(base), stringof(this->pair->second));
}

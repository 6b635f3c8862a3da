/* typedef of a struct definition, of a base type, of pointers, and variables and casts using the typedef names */

typedef struct foo {
	int a;
	char *b;
} foo_t;

typedef unsigned long long counter_t;
typedef foo_t *foo_ptr_t;
typedef int myint, *myintp;
typedef char name_t[16];
typedef enum { OFF, ON } switch_t;

counter_t total;
foo_t gfoo;
switch_t state;

syscall::read:entry
{
	total += (counter_t)arg2;
	this->f = (foo_ptr_t)arg1;
	this->i = (myint)arg0;
	this->ip = (myintp)arg1;
	state = ON;
	gfoo.a = (myint)sizeof(name_t);
}

END
{
	printf("%d %d %d\n", total, gfoo.a, state);
}

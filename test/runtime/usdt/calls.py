# Python 3.11 fires function__entry when the interpreter loop starts on a
# frame (a generator resumed from C...), not for calls it inlines; every
# return fires function__return.
def countdown(n):
    while n > 0:
        yield n
        n -= 1

def total(values):
    return sum(values)

total(countdown(3))

#include "cpp_error.h"

BEGIN
{
	y = BAD;
}

// Prints the generated reference of dtx-d(7) (session/reference.h),
// for scripts/regen-man-reference.
#include "session/reference.h"

#include <iostream>

int main() {
    std::cout << dtx::session::d_reference_roff();
    return 0;
}

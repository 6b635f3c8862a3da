/* Included by cpp_include.d through -C. */
#define TARGET_CALL read
#define COUNT_IT(key) @[key] = count()

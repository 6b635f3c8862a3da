printf-float-int\.d:9:\d+: error: .*%f.*\[D_PRINTF_ARG_TYPE\]
 *9 \|.*
 *\|.*
.*

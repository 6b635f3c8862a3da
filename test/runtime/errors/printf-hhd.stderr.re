printf-hhd\.d:6:\d+: error: .*format conversion #1 is undefined: %hhd.*
 *6 \|.*
 *\|.*

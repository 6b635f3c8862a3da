/* A D error inside an included header is reported at the header's own line. */
inline int BAD = ;

/* eccl_kinds.h - #includes ECCL_TEMPLATE once per kind of the counts and sizes a procedure takes:
 *   ECCL_IK     the kind                             c_int64_t   c_int
 *   ECCL_KS(f)  f with the kind's suffix             f           f_i
 *   ECCL_FIT(s) an integer(c_int64_t) size s as integer(ECCL_IK): to_int(s) is -1 when s does
 *               not fit c_int (the including module has to_int)
 */
#define ECCL_IK c_int64_t
#define ECCL_KS(f) f
#define ECCL_FIT(s) s
#include ECCL_TEMPLATE
#undef ECCL_IK
#undef ECCL_KS
#undef ECCL_FIT

#define ECCL_IK c_int
#define ECCL_KS(f) f/**/_i
#define ECCL_FIT(s) to_int(s)
#include ECCL_TEMPLATE
#undef ECCL_IK
#undef ECCL_KS
#undef ECCL_FIT

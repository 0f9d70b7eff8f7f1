/* eccl_dtypes.h - #includes ECCL_PER_TYPE once per data type: a template (*_template.F90), or
 * eccl_kinds.h or eccl_ranks.h to go on with a second axis.  Each time it defines
 *   ECCL_T      the Fortran type of the data           real(c_float)  real(c_double) ...
 *   ECCL_DT     its eccl dtype                         ECCL_FLOAT32   ECCL_FLOAT64   ...
 *   ECCL_TS(f)  f with the type's suffix               f_f32          f_f64          ...
 *   ECCL_B(f)   f after the BLACS letter               sf             df             ...
 *   ECCL_BL     the BLACS letter, a string             "s"            "d"            ...
 * With ECCL_REAL_ONLY defined, the two real types only.  A new data type is one more block here.
 * gfortran runs cpp in traditional mode: no ##, an empty comment between two names pastes them,
 * and macro arguments keep their blanks (write ECCL_TS(f), never ECCL_TS( f )).
 */
#define ECCL_T real(c_float)
#define ECCL_DT ECCL_FLOAT32
#define ECCL_TS(f) f/**/_f32
#define ECCL_B(f) s/**/f
#define ECCL_BL "s"
#include ECCL_PER_TYPE
#undef ECCL_T
#undef ECCL_DT
#undef ECCL_TS
#undef ECCL_B
#undef ECCL_BL

#define ECCL_T real(c_double)
#define ECCL_DT ECCL_FLOAT64
#define ECCL_TS(f) f/**/_f64
#define ECCL_B(f) d/**/f
#define ECCL_BL "d"
#include ECCL_PER_TYPE
#undef ECCL_T
#undef ECCL_DT
#undef ECCL_TS
#undef ECCL_B
#undef ECCL_BL

#ifndef ECCL_REAL_ONLY
#define ECCL_T complex(c_float_complex)
#define ECCL_DT ECCL_COMPLEX64
#define ECCL_TS(f) f/**/_c64
#define ECCL_B(f) c/**/f
#define ECCL_BL "c"
#include ECCL_PER_TYPE
#undef ECCL_T
#undef ECCL_DT
#undef ECCL_TS
#undef ECCL_B
#undef ECCL_BL

#define ECCL_T complex(c_double_complex)
#define ECCL_DT ECCL_COMPLEX128
#define ECCL_TS(f) f/**/_c128
#define ECCL_B(f) z/**/f
#define ECCL_BL "z"
#include ECCL_PER_TYPE
#undef ECCL_T
#undef ECCL_DT
#undef ECCL_TS
#undef ECCL_B
#undef ECCL_BL
#endif

/* eccl_ranks.h - #includes ECCL_TEMPLATE once per form of the data argument a of a BLACS drop-in
 * or panel broadcast: a scalar (or an array element, the start of a block; not with
 * ECCL_NO_SCALAR), a rank-1 and a rank-2 assumed-size array, and, with ECCL_WITH_PTR, a
 * type(c_ptr) to the block.  Each time it defines
 *   ECCL_RS(f)     f with the form's suffix: f_0, f_1, f_2, f_p
 *   ECCL_A(io)     the type and attributes of a: ECCL_T, intent(io), target (type(c_ptr),
 *                  intent(in) for the pointer)
 *   ECCL_SHAPE(ld) the shape of a whose leading dimension is ld: nothing, (*), (max(ld, 1), *)
 *   ECCL_LOC(a)    the address of the block: c_loc(a), c_loc(a(1)), c_loc(a(1, 1)), a
 *   ECCL_NULL(a)   the address passed for an empty block: c_null_ptr (a(1) does not exist), a
 */
#define ECCL_A(io) ECCL_T, intent(io), target
#define ECCL_NULL(a) c_null_ptr
#ifndef ECCL_NO_SCALAR
#define ECCL_RS(f) f/**/_0
#define ECCL_SHAPE(ld)
#define ECCL_LOC(a) c_loc(a)
#include ECCL_TEMPLATE
#undef ECCL_RS
#undef ECCL_SHAPE
#undef ECCL_LOC
#endif

#define ECCL_RS(f) f/**/_1
#define ECCL_SHAPE(ld) (*)
#define ECCL_LOC(a) c_loc(a(1))
#include ECCL_TEMPLATE
#undef ECCL_RS
#undef ECCL_SHAPE
#undef ECCL_LOC

#define ECCL_RS(f) f/**/_2
#define ECCL_SHAPE(ld) (max(ld, 1), *)
#define ECCL_LOC(a) c_loc(a(1, 1))
#include ECCL_TEMPLATE
#undef ECCL_RS
#undef ECCL_SHAPE
#undef ECCL_LOC
#undef ECCL_A
#undef ECCL_NULL

#ifdef ECCL_WITH_PTR
#define ECCL_RS(f) f/**/_p
#define ECCL_A(io) type(c_ptr), intent(in)
#define ECCL_SHAPE(ld)
#define ECCL_LOC(a) a
#define ECCL_NULL(a) a
#include ECCL_TEMPLATE
#undef ECCL_RS
#undef ECCL_A
#undef ECCL_SHAPE
#undef ECCL_LOC
#undef ECCL_NULL
#endif

! eccl_device.F90 - module eccl_device: the GPU queries of eccl_cuda.h from Fortran.  They exist in
! every build: without the CUDA backend they give ECCL_ERR_UNSUPPORTED, with it but no usable GPU
! ECCL_ERR_NO_DEVICE.  (No collective takes device arrays yet: doc/fortran.md.)
module eccl_device
  use, intrinsic :: iso_c_binding
  use eccl_types
  implicit none
  private

  public :: eccl_cuda_device_count, eccl_cuda_device_check

  interface
    function c_device_count(count) bind(C, name="eccl_cuda_device_count") result(rc)
      import :: c_int
      integer(c_int), intent(out) :: count
      integer(c_int) :: rc
    end function c_device_count

    function c_device_check(device, name, name_len) bind(C, name="eccl_cuda_device_check") &
        result(rc)
      import :: c_int, c_char, c_size_t
      integer(c_int), value :: device
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: name_len
      integer(c_int) :: rc
    end function c_device_check
  end interface

contains

  ! call eccl_cuda_device_count(count, info): CUDA devices this process can use (0 when none).
  subroutine eccl_cuda_device_count(count, info)
    integer(c_int), intent(out) :: count, info
    count = 0
    info = c_device_count(count)
  end subroutine eccl_cuda_device_count

  ! call eccl_cuda_device_check(device, name, info): ECCL_SUCCESS when device can run eccl's
  ! kernels; name receives as much of the device name as it holds (blank-padded).
  subroutine eccl_cuda_device_check(device, name, info)
    integer(c_int), intent(in) :: device
    character(len=*), intent(out) :: name
    integer(c_int), intent(out) :: info
    character(kind=c_char) :: buf(len(name) + 1)
    buf = c_null_char
    info = c_device_check(device, buf, int(size(buf), c_size_t))
    name = eccl_to_string(buf)
  end subroutine eccl_cuda_device_check

end module eccl_device

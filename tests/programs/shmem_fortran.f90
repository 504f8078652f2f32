! An OpenSHMEM program in Fortran, on 2 PEs. Open MPI's oshmem in Debian has no Fortran
! bindings (and OpenSHMEM 1.4 deprecates them): the program calls the C routines through
! ISO_C_BINDING, as Fortran programs do with such libraries.
!   PE 0 arrives 100 ms late at the first barrier (PE 1 waits 100 ms),
!   PE 0 puts PE 1's flag 100 ms late (PE 1 waits for it in shmem_int_wait_until),
!   both take a lock in turn, holding it 50 ms (the second waits 50 ms).
module shmem_c
  use iso_c_binding
  implicit none
  integer(c_int), parameter :: SHMEM_CMP_EQ = 0
  integer(c_int), bind(C, name="causeway_fortran_flag") :: flag = 0
  integer(c_long), bind(C, name="causeway_fortran_lock") :: lock = 0
  interface
    subroutine shmem_init() bind(C, name="shmem_init")
    end subroutine
    subroutine shmem_finalize() bind(C, name="shmem_finalize")
    end subroutine
    integer(c_int) function shmem_my_pe() bind(C, name="shmem_my_pe")
      import :: c_int
    end function
    subroutine shmem_barrier_all() bind(C, name="shmem_barrier_all")
    end subroutine
    subroutine shmem_int_p(dest, value, pe) bind(C, name="shmem_int_p")
      import :: c_int
      integer(c_int) :: dest
      integer(c_int), value :: value, pe
    end subroutine
    subroutine shmem_int_wait_until(ivar, cmp, cmp_value) bind(C, name="shmem_int_wait_until")
      import :: c_int
      integer(c_int) :: ivar
      integer(c_int), value :: cmp, cmp_value
    end subroutine
    subroutine shmem_set_lock(l) bind(C, name="shmem_set_lock")
      import :: c_long
      integer(c_long) :: l
    end subroutine
    subroutine shmem_clear_lock(l) bind(C, name="shmem_clear_lock")
      import :: c_long
      integer(c_long) :: l
    end subroutine
    integer(c_int) function usleep(microseconds) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: microseconds
    end function
  end interface
end module

program shmem_fortran
  use shmem_c
  implicit none
  integer :: me, rc
  call shmem_init()
  me = shmem_my_pe()
  if (me == 0) rc = usleep(100000)
  call shmem_barrier_all()
  if (me == 0) then
    rc = usleep(100000)
    call shmem_int_p(flag, 1, 1)
  else
    call shmem_int_wait_until(flag, SHMEM_CMP_EQ, 1)
  end if
  call shmem_barrier_all()
  call shmem_set_lock(lock)
  rc = usleep(50000)
  call shmem_clear_lock(lock)
  call shmem_barrier_all()
  if (me == 0) print '(a)', 'shmem_fortran: done'
  call shmem_finalize()
end program

! Wait states from Fortran 2008 (`use mpi_f08`): handles are derived types, IERROR is optional
! (left out below, except where the program checks it), statuses are TYPE(MPI_Status). Rank 0
! computes 100 ms before each of four phases; rank 1 waits each time (2 ranks):
!   1. MPI_Recv of an MPI_Send (MPI_STATUS_IGNORE): Late Sender 100 ms in MPI_Recv;
!   2. two MPI_Irecv completed by MPI_Waitall with statuses: 100 ms in MPI_Waitall;
!   3. two MPI_Irecv completed one at a time by MPI_Waitany: 100 ms in MPI_Waitany;
!   4. MPI_Allreduce with MPI_IN_PLACE: rank 1 waits 100 ms (Wait at N x N).
! Prints what rank 1 received and the sum.
program fortran_f08
  use mpi_f08
  use iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function usleep(us) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: us
    end function
  end interface
  integer :: rank, ierr, i, index, a, b, total, got(5)
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: requests(2)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (ierr /= MPI_SUCCESS) error stop 1
  a = 1
  b = 2
  got = 0
  if (rank == 0) then
    ierr = usleep(100000)
    call MPI_Send(a, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD)
    ierr = usleep(100000)
    call MPI_Isend(a, 1, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, requests(1))
    call MPI_Isend(b, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, requests(2))
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
    ierr = usleep(100000)
    call MPI_Send(a, 1, MPI_INTEGER, 1, 4, MPI_COMM_WORLD)
    call MPI_Send(b, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
    ierr = usleep(100000)
  else if (rank == 1) then
    call MPI_Recv(got(1), 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Irecv(got(2), 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, requests(1))
    call MPI_Irecv(got(3), 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, requests(2))
    call MPI_Waitall(2, requests, statuses)
    call MPI_Irecv(got(4), 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, requests(1))
    call MPI_Irecv(got(5), 1, MPI_INTEGER, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, requests(2))
    do i = 1, 2
      call MPI_Waitany(2, requests, index, status)
    end do
    print '(a,5i3,a,2i3)', 'rank 1 got', got, '; last from', status%MPI_SOURCE, status%MPI_TAG
  end if
  total = a + rank
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i3)', 'sum', total
  call MPI_Finalize()
end program

! Wait states from Fortran (`use mpi`), with conversions the wrappers must get right: statuses,
! arrays of requests and statuses, Waitany's index counted from 1. Rank 0 computes 100 ms
! before each of four phases; rank 1 waits each time (2 ranks):
!   1. MPI_Recv of an MPI_Send: Late Sender 100 ms in MPI_Recv;
!   2. two MPI_Irecv completed by MPI_Waitall with statuses: 100 ms in MPI_Waitall;
!   3. two MPI_Irecv completed one at a time by MPI_Waitany: 100 ms in MPI_Waitany;
!   4. MPI_Allreduce: rank 1 waits 100 ms (Wait at N x N).
program fortran_patterns
  use mpi
  use iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function usleep(us) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: us
    end function
  end interface
  integer :: rank, ierr, i, index, a, b, total
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2), requests(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = 1
  b = 2
  if (rank == 0) then
    ierr = usleep(100000)
    call MPI_Send(a, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, ierr)
    ierr = usleep(100000)
    call MPI_Isend(a, 1, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(b, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
    ierr = usleep(100000)
    call MPI_Send(a, 1, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, ierr)
    call MPI_Send(b, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, ierr)
    ierr = usleep(100000)
  else if (rank == 1) then
    call MPI_Recv(a, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, status, ierr)
    call MPI_Irecv(a, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Irecv(b, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, statuses, ierr)
    call MPI_Irecv(a, 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Irecv(b, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, requests(2), ierr)
    do i = 1, 2
      call MPI_Waitany(2, requests, index, status, ierr)
    end do
  end if
  call MPI_Allreduce(a, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program

! The walked call paths of a Fortran program (`use mpi`), built with -O1 -g: module procedures,
! named module::procedure. In each of 4 steps, solver::step calls solver::prepare (a busy loop
! in solver::smooth: 60 ms on rank 0, 10 ms on rank 1) and then solver::exchange, whose
! MPI_Sendrecv with the other rank is where rank 1 waits (2 ranks).
module solver
  use mpi
  implicit none
  double precision :: sink
contains
  subroutine smooth(ms)
    double precision, intent(in) :: ms
    double precision :: finish, x
    x = 0
    finish = MPI_Wtime() + ms * 1d-3
    do while (MPI_Wtime() < finish)
      x = x + 1
    end do
    sink = x
  end subroutine

  subroutine prepare(rank)
    integer, intent(in) :: rank
    if (rank == 0) then
      call smooth(60d0)
    else
      call smooth(10d0)
    end if
  end subroutine

  subroutine exchange(rank)
    integer, intent(in) :: rank
    double precision :: out(8), in(8)
    integer :: ierr
    out = rank
    call MPI_Sendrecv(out, 8, MPI_DOUBLE_PRECISION, 1 - rank, 0, in, 8, MPI_DOUBLE_PRECISION, &
                      1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end subroutine

  subroutine step(rank)
    integer, intent(in) :: rank
    call prepare(rank)
    call exchange(rank)
  end subroutine
end module

program fortran_nested
  use mpi
  use solver
  implicit none
  integer :: rank, ierr, i
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do i = 1, 4
    call step(rank)
  end do
  call MPI_Finalize(ierr)
end program

! MPI-IO from Fortran (`use mpi`): each of 2 ranks writes its 10 default integers (40 bytes) to
! its own block of one shared file with MPI_File_write_at, reads them back with
! MPI_File_read_at_all, and rank 0 deletes the file. The file name is a CHARACTER argument
! (gfortran passes its length hidden after the others) padded with blanks. Prints the sum of
! what both ranks read back (0..9 and 100..109: 45 + 1045 = 1090).
program fortran_io
  use mpi
  implicit none
  integer :: rank, ierr, fh, i, total, mine
  integer :: out(10), back(10)
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: offset
  character(len=256) :: name, dir

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_environment_variable("TMPDIR", dir)
  if (len_trim(dir) == 0) dir = "/tmp"
  name = trim(dir) // "/causeway-fortran-io.dat"
  do i = 1, 10
    out(i) = 100 * rank + i - 1
  end do
  offset = rank * 40
  call MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, &
                     ierr)
  if (ierr /= MPI_SUCCESS) error stop 1
  call MPI_File_write_at(fh, offset, out, 10, MPI_INTEGER, status, ierr)
  call MPI_File_read_at_all(fh, offset, back, 10, MPI_INTEGER, status, ierr)
  call MPI_File_close(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_File_delete(name, MPI_INFO_NULL, ierr)
  mine = sum(back)
  call MPI_Reduce(mine, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, i0)', "read back ", total
  call MPI_Finalize(ierr)
end program fortran_io

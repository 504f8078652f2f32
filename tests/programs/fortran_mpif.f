C     A Late Sender from fixed-form Fortran with mpif.h: rank 0 computes 100 ms before its
C     send, rank 1 waits in MPI_Recv (2 ranks).
      program mpif
      implicit none
      include 'mpif.h'
      integer rank, ierr, value, status(MPI_STATUS_SIZE)
      integer t0, t1, rate
      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      value = 7
      if (rank .eq. 0) then
        call system_clock(t0, rate)
   10   call system_clock(t1)
        if (t1 - t0 .lt. rate / 10) goto 10
        call MPI_Send(value, 1, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, ierr)
      else if (rank .eq. 1) then
        call MPI_Recv(value, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD,
     &                status, ierr)
      end if
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call MPI_Finalize(ierr)
      end

/* A PMPI interposer for benchmarks/mpi_calls.sh: counts and times the MPI calls granite makes
 * on the step's path (allreduce, the point-to-point posts and their waits, alltoall) and, for
 * each call, the granite code that made it (return addresses three frames up, as offsets into
 * the executable, which the script names with addr2line). Each rank writes one table to
 * $GRANITE_MPI_CALLS.<rank> at MPI_Finalize. Not part of granite: loaded with LD_PRELOAD. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ALLREDUCE, WAITALL, ISEND, IRECV, ALLTOALL, ALLTOALLV, BARRIER, KINDS };
static const char* kNames[KINDS] = {"allreduce", "waitall",   "isend",  "irecv",
                                    "alltoall",  "alltoallv", "barrier"};
enum { DEPTH = 4, SITES = 4096 };
struct Site {
  int kind;
  uintptr_t frames[DEPTH];
  long calls;
  double seconds;
};
static struct Site sites[SITES];
static int used;

static void record(int kind, double seconds) {
  void* stack[DEPTH + 2];
  const int n = backtrace(stack, DEPTH + 2);
  uintptr_t frames[DEPTH] = {0};
  for (int d = 0; d < DEPTH && d + 2 < n; ++d) {
    Dl_info info;
    /* offsets into the executable; 0 for frames in shared libraries */
    if (dladdr(stack[d + 2], &info) && info.dli_fname && strstr(info.dli_fname, ".so") == NULL)
      frames[d] = (uintptr_t)stack[d + 2] - (uintptr_t)info.dli_fbase;
  }
  for (int s = 0; s < used; ++s)
    if (sites[s].kind == kind && memcmp(sites[s].frames, frames, sizeof frames) == 0) {
      ++sites[s].calls;
      sites[s].seconds += seconds;
      return;
    }
  if (used == SITES) return;
  sites[used].kind = kind;
  memcpy(sites[used].frames, frames, sizeof frames);
  sites[used].calls = 1;
  sites[used].seconds = seconds;
  ++used;
}

#define TIMED(kind, call)                                                                          \
  do {                                                                                             \
    const double t0 = PMPI_Wtime();                                                                \
    const int e = call;                                                                            \
    record(kind, PMPI_Wtime() - t0);                                                               \
    return e;                                                                                      \
  } while (0)

int MPI_Allreduce(const void* s, void* r, int c, MPI_Datatype d, MPI_Op o, MPI_Comm comm) {
  TIMED(ALLREDUCE, PMPI_Allreduce(s, r, c, d, o, comm));
}
int MPI_Waitall(int n, MPI_Request* q, MPI_Status* st) { TIMED(WAITALL, PMPI_Waitall(n, q, st)); }
int MPI_Isend(const void* b, int c, MPI_Datatype d, int to, int tag, MPI_Comm comm,
              MPI_Request* q) {
  TIMED(ISEND, PMPI_Isend(b, c, d, to, tag, comm, q));
}
int MPI_Irecv(void* b, int c, MPI_Datatype d, int from, int tag, MPI_Comm comm, MPI_Request* q) {
  TIMED(IRECV, PMPI_Irecv(b, c, d, from, tag, comm, q));
}
int MPI_Alltoall(const void* s, int sc, MPI_Datatype sd, void* r, int rc, MPI_Datatype rd,
                 MPI_Comm comm) {
  TIMED(ALLTOALL, PMPI_Alltoall(s, sc, sd, r, rc, rd, comm));
}
int MPI_Alltoallv(const void* s, const int* sc, const int* sd, MPI_Datatype st, void* r,
                  const int* rc, const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  TIMED(ALLTOALLV, PMPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, comm));
}
int MPI_Barrier(MPI_Comm comm) { TIMED(BARRIER, PMPI_Barrier(comm)); }

int MPI_Finalize(void) {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* base = getenv("GRANITE_MPI_CALLS");
  if (base != NULL) {
    char name[4096];
    snprintf(name, sizeof name, "%s.%d", base, rank);
    FILE* f = fopen(name, "w");
    if (f != NULL) {
      for (int s = 0; s < used; ++s) {
        fprintf(f, "%s %ld %.9f", kNames[sites[s].kind], sites[s].calls, sites[s].seconds);
        for (int d = 0; d < DEPTH; ++d) fprintf(f, " 0x%lx", (unsigned long)sites[s].frames[d]);
        fprintf(f, "\n");
      }
      fclose(f);
    }
  }
  return PMPI_Finalize();
}

# Test registration helpers.
#
# granite_add_mpi_test(NAME target [RANKS 1 2 3 4] [ARGS ...])
#   registers `target` once per rank count as NAME.np<k>, launched through mpiexec with
#   --oversubscribe (the CI machine has 2 cores) and the OpenMPI root overrides.
set(GRANITE_MPI_TEST_ENV
  OMPI_ALLOW_RUN_AS_ROOT=1
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  OMPI_MCA_rmaps_base_oversubscribe=1
  # Oversubscribed ranks (3-4 on 2 cores) must yield the core while they wait for messages.
  OMPI_MCA_mpi_yield_when_idle=1
  # No shared-memory probing of the container's /dev/shm limits and no network lookups.
  OMPI_MCA_btl=self,vader
  OMPI_MCA_btl_vader_single_copy_mechanism=none)

# Per-test limit of the MPI tests; the sanitizer build (scripts/sanitize) raises it, since an
# instrumented run of the whole MPI suite at one rank takes well over the default.
set(GRANITE_MPI_TEST_TIMEOUT 900 CACHE STRING "ctest timeout (s) of each MPI test")

function(granite_add_mpi_test name target)
  cmake_parse_arguments(ARG "" "" "RANKS;ARGS" ${ARGN})
  if(NOT ARG_RANKS)
    set(ARG_RANKS 1 2 3 4)
  endif()
  foreach(np IN LISTS ARG_RANKS)
    add_test(NAME ${name}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} --oversubscribe
                     ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${target}> ${ARG_ARGS} ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${name}.np${np} PROPERTIES
      ENVIRONMENT "${GRANITE_MPI_TEST_ENV}" PROCESSORS ${np} TIMEOUT ${GRANITE_MPI_TEST_TIMEOUT} LABELS mpi)
  endforeach()
endfunction()

# `cmake --install BUILD --prefix PREFIX` (docs/install.md):
#   PREFIX/bin/granite
#   PREFIX/lib/libgranite_core.a, PREFIX/include/granite/...       the library and its headers
#   PREFIX/lib/cmake/Granite/                                       find_package(Granite): the
#       config, its version file and the exported target Granite::granite
#   PREFIX/share/granite/{configs,scripts,cluster}                  scenarios, Python scripts,
#       SLURM kit
#   PREFIX/share/doc/granite/                                       README and docs/*.md
#   PREFIX/share/modulefiles/granite/VERSION.lua                    Lmod modulefile, written at
#       install time for the prefix installed to
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GRANITE_CMAKE_DIR lib/cmake/Granite)
set(GRANITE_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/granite)

# Dependencies a coupling code's module environment must provide: the modulefile prereq()s
# them (e.g. -DGRANITE_MODULE_PREREQ="openmpi/4.1;hdf5/1.14"); empty: the system's MPI.
set(GRANITE_MODULE_PREREQ "" CACHE STRING
    "Modules the Granite modulefile requires to be loaded (;-separated), e.g. openmpi/4.1")

# --- the executable and the library -----------------------------------------------------------
# Dependencies outside the linker's default directories (an MPI or HDF5 from a module) stay
# found by the installed binary through its RPATH.
set_target_properties(granite PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
set_target_properties(granite_core PROPERTIES EXPORT_NAME granite)
# The headers are C++20: so is every code that includes them.
target_compile_features(granite_core PUBLIC cxx_std_20)
install(TARGETS granite RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS granite_core EXPORT GraniteTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/granite DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")

# --- the CMake package --------------------------------------------------------------------------
install(EXPORT GraniteTargets NAMESPACE Granite:: FILE GraniteTargets.cmake
        DESTINATION ${GRANITE_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/GraniteConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/GraniteConfig.cmake
                              INSTALL_DESTINATION ${GRANITE_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR GRANITE_SHARE_DIR)
# 0.x: a minor version may change the API, so 0.1 accepts 0.1.z only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/GraniteConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/GraniteConfig.cmake
              ${PROJECT_BINARY_DIR}/GraniteConfigVersion.cmake
        DESTINATION ${GRANITE_CMAKE_DIR})

# --- scenarios, scripts, cluster kit, docs ---------------------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${GRANITE_SHARE_DIR}/configs
        FILES_MATCHING PATTERN "*.yaml")
# The post-processing scripts and their loader granite_io.py, side by side as in the checkout
# (each script imports the loader from its own folder); the development checks stay behind.
file(GLOB granite_python_scripts CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scripts/*.py)
list(REMOVE_ITEM granite_python_scripts ${PROJECT_SOURCE_DIR}/scripts/check_architecture.py
     ${PROJECT_SOURCE_DIR}/scripts/granite_io.py)
install(PROGRAMS ${granite_python_scripts} DESTINATION ${GRANITE_SHARE_DIR}/scripts)
install(FILES ${PROJECT_SOURCE_DIR}/scripts/granite_io.py DESTINATION ${GRANITE_SHARE_DIR}/scripts)
# make_job.py and scaling_study.py find ../scripts/ from here, and the installed bin/granite.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/cluster/make_job.py ${PROJECT_SOURCE_DIR}/cluster/scaling_study.py
        DESTINATION ${GRANITE_SHARE_DIR}/cluster)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cluster/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME cluster.md)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md")

# --- the Lmod modulefile ---------------------------------------------------------------------------
# What is known now (version, MPI, prerequisites) is filled in here; the prefix only at install
# time, since `cmake --install --prefix` may choose another one than CMAKE_INSTALL_PREFIX.
# The MPI named by its launcher's first line, e.g. "mpiexec (OpenRTE) 4.1.4".
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE GRANITE_MODULE_MPI
                ERROR_QUIET TIMEOUT 10)
string(REGEX REPLACE "\n.*" "" GRANITE_MODULE_MPI "${GRANITE_MODULE_MPI}")
if(NOT GRANITE_MODULE_MPI)
  set(GRANITE_MODULE_MPI "an MPI ${MPI_CXX_VERSION} library")
endif()
set(GRANITE_MODULE_PREREQ_LINES "")
foreach(module IN LISTS GRANITE_MODULE_PREREQ)
  string(APPEND GRANITE_MODULE_PREREQ_LINES "prereq(\"${module}\")\n")
endforeach()
if(NOT GRANITE_MODULE_PREREQ_LINES)
  set(GRANITE_MODULE_PREREQ_LINES
      "-- No prereq(): built against the system's MPI (-DGRANITE_MODULE_PREREQ names modules).\n")
endif()
set(GRANITE_PREFIX "@GRANITE_PREFIX@")  # kept for the install-time pass
configure_file(${PROJECT_SOURCE_DIR}/cmake/granite.lua.in ${PROJECT_BINARY_DIR}/granite.lua.in
               @ONLY)
install(CODE "
  get_filename_component(GRANITE_PREFIX \"\${CMAKE_INSTALL_PREFIX}\" ABSOLUTE)
  set(granite_modulefile
      \"\$ENV{DESTDIR}\${GRANITE_PREFIX}/${CMAKE_INSTALL_DATADIR}/modulefiles/granite/${PROJECT_VERSION}.lua\")
  message(STATUS \"Installing: \${granite_modulefile}\")
  configure_file(\"${PROJECT_BINARY_DIR}/granite.lua.in\" \"\${granite_modulefile}\" @ONLY)
")

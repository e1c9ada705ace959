# Run at build time (cmake -P): writes OUTPUT, a C++ source defining
# granite::build_info::git_commit(), with the commit of SOURCE_DIR's checkout (12 hex digits,
# "-dirty" when tracked files differ from it, "unknown" outside git). The file is rewritten
# only when the text changes, so an unchanged commit triggers no recompilation.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE failed ERROR_QUIET)
if(failed OR NOT commit)
  set(commit "unknown")
else()
  execute_process(COMMAND git diff --quiet HEAD --
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "// Generated at build time by cmake/GitCommit.cmake.
#include \"granite/core/build_info.hpp\"

const char* granite::build_info::git_commit() { return \"${commit}\"; }
")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()

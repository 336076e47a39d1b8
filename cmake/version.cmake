# version.cmake - writes OUT (a C header defining PCSIM_VERSION) from `git
# describe` at build time, so `pcsim --version` and every output's version
# line name the commit the binary was built from, not the one CMake was last
# configured at.  The file is rewritten only when the version changes, so an
# unchanged tree rebuilds nothing.  Outside a git checkout: FALLBACK.
#   cmake -DSRC=<source dir> -DOUT=<header> -DFALLBACK=<version> -P version.cmake
if(EXISTS "${SRC}/.git") # pcsim's own checkout (a file in a worktree), not a repository around a tarball
  execute_process(COMMAND git describe --always --dirty --tags
                  WORKING_DIRECTORY ${SRC}
                  OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
endif()
if(NOT version)
  set(version "${FALLBACK}")
endif()
set(text "#define PCSIM_VERSION \"${version}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()

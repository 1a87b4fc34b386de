# pgo.cmake — profile-guided optimisation of the library and the programs
# (GCC, Release).  `make build` builds an instrumented copy (build/pgo,
# PW_PGO_GENERATE), runs it over traces the bench generators write
# (scripts/pgo-train.sh), then builds build/release with that profile
# (PW_PGO_USE).  The per-record paths branch on data (record kinds, model
# states, which stream is next); the profile tells GCC which way they go,
# which lays out the hot code in line and cut 6-11 % of the instructions
# of the bench commands.  Functions the training never ran are optimised
# as without a profile (-fprofile-partial-training), so formats it does
# not cover lose nothing.  -fprofile-prefix-path names each object's
# profile by its path inside its build directory, which is the same in
# both builds.  A new profile rebuilds every object that uses it (the
# stamp below), so an object is never compiled with another's profile.
set(PW_PGO_ACTIVE "")
if((PW_PGO_GENERATE OR PW_PGO_USE) AND CMAKE_BUILD_TYPE STREQUAL "Release"
   AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT PW_SANITIZE AND NOT PW_FUZZ)
  if(PW_PGO_GENERATE)
    set(PW_PGO_ACTIVE generate)
  elseif(EXISTS ${PW_PGO_USE}/trained.stamp)
    set(PW_PGO_ACTIVE use)
  else()
    message(WARNING "PW_PGO_USE=${PW_PGO_USE} holds no trained profile: built without one")
  endif()
endif()

# Adds the profile flags to a target's compilation (and link).
function(pw_pgo target)
  if(PW_PGO_ACTIVE STREQUAL "generate")
    target_compile_options(${target} PRIVATE -fprofile-generate=${PW_PGO_GENERATE}
                           -fprofile-update=prefer-atomic -fprofile-prefix-path=${CMAKE_BINARY_DIR})
    target_link_options(${target} PRIVATE -fprofile-generate=${PW_PGO_GENERATE})
  elseif(PW_PGO_ACTIVE STREQUAL "use")
    target_compile_options(${target} PRIVATE -fprofile-use=${PW_PGO_USE} -fprofile-partial-training
                           -Wno-missing-profile -fprofile-prefix-path=${CMAKE_BINARY_DIR})
    get_target_property(sources ${target} SOURCES)
    set_source_files_properties(${sources} TARGET_DIRECTORY ${target} PROPERTIES
                                OBJECT_DEPENDS ${PW_PGO_USE}/trained.stamp)
    # A generated source's profile is recorded under the instrumented
    # build's path, which GCC counts as a change of source: the same text
    # (the same generator), so the profile is used as it is.
    foreach(src ${sources})
      if(src MATCHES "^${CMAKE_BINARY_DIR}/")
        set_property(SOURCE ${src} TARGET_DIRECTORY ${target} APPEND PROPERTY
                     COMPILE_OPTIONS -Wno-coverage-mismatch)
      endif()
    endforeach()
  endif()
endfunction()

# inputs.cmake — the decompressors of compressed inputs (NAME.zst, NAME.gz).
# libzstd is optional at build, like the converters' libraries: without it a
# .zst input is refused by name (CI installs it).  zlib comes from
# converters.cmake (PW_HAVE_ZLIB).
pkg_check_modules(ZSTD IMPORTED_TARGET libzstd)
if(ZSTD_FOUND)
  target_compile_definitions(perfweave_objects PRIVATE PW_HAVE_ZSTD=1)
  target_link_libraries(perfweave_objects PUBLIC PkgConfig::ZSTD)
  list(APPEND PW_CONVERT_LIBS PkgConfig::ZSTD)
  string(APPEND PW_PC_REQUIRES " libzstd")
endif()
message(STATUS "inputs: zstd=${ZSTD_FOUND} zlib=${ZLIB_FOUND}")

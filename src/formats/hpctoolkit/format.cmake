# hpctoolkit: the prototype's experiment.xml is parsed with expat (Debian libexpat1-dev).
pkg_check_modules(EXPAT REQUIRED IMPORTED_TARGET expat)
list(APPEND PW_FORMAT_LIBS PkgConfig::EXPAT)
string(APPEND PW_PC_REQUIRES " expat")
# The project's own writer of released-format databases (bench, examples).
add_executable(gen_hpctoolkit_db ${CMAKE_SOURCE_DIR}/tools/gen_hpctoolkit_db.c)

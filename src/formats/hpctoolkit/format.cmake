# hpctoolkit: the prototype's experiment.xml is parsed with expat (Debian libexpat1-dev).
pkg_check_modules(EXPAT REQUIRED IMPORTED_TARGET expat)
list(APPEND PW_FORMAT_LIBS PkgConfig::EXPAT)

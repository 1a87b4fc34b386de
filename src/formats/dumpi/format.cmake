# dumpi: the function layouts and constant names become C at build time.
# The fields' MPI roles come from the model's one role table.
add_executable(gen_dumpi_tables ${CMAKE_SOURCE_DIR}/tools/gen_dumpi_tables.c
               ${CMAKE_SOURCE_DIR}/src/model/mpi_roles.c)
target_include_directories(gen_dumpi_tables PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
add_custom_command(
  OUTPUT ${PW_GENERATED_DIR}/dumpi_table.c
  COMMAND gen_dumpi_tables ${CMAKE_CURRENT_LIST_DIR}/dumpi-functions.tsv
          ${CMAKE_CURRENT_LIST_DIR}/dumpi-constants.tsv ${PW_GENERATED_DIR}/dumpi_table.c
  DEPENDS gen_dumpi_tables ${CMAKE_CURRENT_LIST_DIR}/dumpi-functions.tsv
          ${CMAKE_CURRENT_LIST_DIR}/dumpi-constants.tsv
  COMMENT "Generating the DUMPI function table")
list(APPEND PW_GENERATED_SOURCES ${PW_GENERATED_DIR}/dumpi_table.c)

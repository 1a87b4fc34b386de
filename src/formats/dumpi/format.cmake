# dumpi: the function layouts and constant names become C at build time.
add_executable(gen_dumpi_tables ${CMAKE_SOURCE_DIR}/tools/gen_dumpi_tables.c)
add_custom_command(
  OUTPUT ${PW_GENERATED_DIR}/dumpi_table.c
  COMMAND gen_dumpi_tables ${CMAKE_CURRENT_LIST_DIR}/dumpi-functions.tsv
          ${CMAKE_CURRENT_LIST_DIR}/dumpi-constants.tsv ${PW_GENERATED_DIR}/dumpi_table.c
  DEPENDS gen_dumpi_tables ${CMAKE_CURRENT_LIST_DIR}/dumpi-functions.tsv
          ${CMAKE_CURRENT_LIST_DIR}/dumpi-constants.tsv
  COMMENT "Generating the DUMPI function table")
list(APPEND PW_GENERATED_SOURCES ${PW_GENERATED_DIR}/dumpi_table.c)

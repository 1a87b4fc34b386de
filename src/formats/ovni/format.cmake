# ovni: the event signature table becomes C at build time.
add_executable(gen_ovni_events ${CMAKE_SOURCE_DIR}/tools/gen_ovni_events.c)
add_custom_command(
  OUTPUT ${PW_GENERATED_DIR}/ovni_events_table.c
  COMMAND gen_ovni_events ${CMAKE_CURRENT_LIST_DIR}/ovni-events.tsv ${PW_GENERATED_DIR}/ovni_events_table.c
  DEPENDS gen_ovni_events ${CMAKE_CURRENT_LIST_DIR}/ovni-events.tsv
  COMMENT "Generating the ovni event table")
list(APPEND PW_GENERATED_SOURCES ${PW_GENERATED_DIR}/ovni_events_table.c)

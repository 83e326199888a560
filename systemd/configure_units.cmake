# Fills the unit templates (*.service.in) with absolute install paths. Runs at install time
# (systemd/CMakeLists.txt), so that the units name the prefix given then
# (`cmake --install --prefix /usr`), and from tests/systemd with the build tree's paths.
#   cmake -DHIL_UNIT_SOURCE_DIR=systemd -DHIL_UNIT_OUTPUT_DIR=OUT -DHIL_BIN_DIR=bin
#         -DHIL_DOC_DIR=share/doc/hilsim -DHIL_RIGS_DIR=share/hilsim/rigs
#         -DCMAKE_INSTALL_PREFIX=/usr -P configure_units.cmake
# Relative directories are taken relative to CMAKE_INSTALL_PREFIX.
cmake_minimum_required(VERSION 3.25)

foreach(required IN ITEMS HIL_UNIT_SOURCE_DIR HIL_UNIT_OUTPUT_DIR HIL_BIN_DIR HIL_DOC_DIR
                          HIL_RIGS_DIR CMAKE_INSTALL_PREFIX)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "configure_units.cmake: ${required} is not set")
  endif()
endforeach()

foreach(dir IN ITEMS HIL_BIN_DIR HIL_DOC_DIR HIL_RIGS_DIR)
  cmake_path(ABSOLUTE_PATH ${dir} BASE_DIRECTORY "${CMAKE_INSTALL_PREFIX}" NORMALIZE)
  string(REGEX REPLACE "/$" "" ${dir} "${${dir}}")
endforeach()

file(GLOB templates "${HIL_UNIT_SOURCE_DIR}/*.service.in")
if(NOT templates)
  message(FATAL_ERROR "configure_units.cmake: no *.service.in in ${HIL_UNIT_SOURCE_DIR}")
endif()
foreach(template IN LISTS templates)
  cmake_path(GET template STEM LAST_ONLY unit)  # hilsim@.service.in -> hilsim@.service
  configure_file("${template}" "${HIL_UNIT_OUTPUT_DIR}/${unit}" @ONLY)
endforeach()

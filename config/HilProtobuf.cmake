# hil_protobuf_library(<target> PROTOS <file.proto>...)
# Compiles .proto files (paths relative to the current source dir) into a static library of
# generated C++. Imports and includes are relative to the repository root, so a file
# `config/rig.proto` imports "config/executive.proto" and C++ includes "config/rig.pb.h".
# Generated code is built without our warnings (-w): it is not ours to fix.
function(hil_protobuf_library target)
  cmake_parse_arguments(ARG "" "" "PROTOS;LIBS" ${ARGN})
  set(out_dir ${PROJECT_BINARY_DIR}/generated)
  file(RELATIVE_PATH rel_dir ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  set(sources)
  foreach(proto ${ARG_PROTOS})
    get_filename_component(stem ${proto} NAME_WE)
    get_filename_component(sub ${proto} DIRECTORY)  # scenario/scenario.proto: scenario
    set(gen_dir ${out_dir}/${rel_dir})
    if(sub)
      string(APPEND gen_dir /${sub})
    endif()
    set(generated ${gen_dir}/${stem}.pb.cc ${gen_dir}/${stem}.pb.h)
    add_custom_command(
      OUTPUT ${generated}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND protobuf::protoc --cpp_out=${out_dir} -I ${PROJECT_SOURCE_DIR}
              ${rel_dir}/${proto}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${proto} protobuf::protoc
      COMMENT "protoc ${rel_dir}/${proto}"
      VERBATIM)
    list(APPEND sources ${generated})
  endforeach()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} SYSTEM PUBLIC ${out_dir})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf ${ARG_LIBS})
  target_compile_options(${target} PRIVATE -w)
  target_precompile_headers(${target} PRIVATE <google/protobuf/message.h>
                                             <google/protobuf/generated_message_reflection.h>)
endfunction()

# cmake --install: the libraries, the public headers, the CLI, the data files the library reads
# (models/targets) and a CMake package config, so that a project does
#   find_package(tirx_verify REQUIRED)
#   target_link_libraries(app PRIVATE tirx_verify::tirx_verify)
# (tests/install/consumer is such a project; ctest `install_consumer` builds it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(tirx_exported tirx_layout tirx_hw tirx_prove tirx_kernel tirx_report tirx_render tirx_verify_lib)
set_target_properties(tirx_verify_lib PROPERTIES EXPORT_NAME tirx_verify)
install(TARGETS ${tirx_exported} EXPORT tirx_verifyTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/tirx_verify DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(TARGETS tirx-verify RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(DIRECTORY models/targets DESTINATION ${CMAKE_INSTALL_DATADIR}/tirx_verify/models COMPONENT data)
install(EXPORT tirx_verifyTargets NAMESPACE tirx_verify:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tirx_verify
        COMPONENT dev)
configure_package_config_file(cmake/tirx_verifyConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/tirx_verifyConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tirx_verify)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tirx_verifyConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tirx_verifyConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/tirx_verifyConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tirx_verify COMPONENT dev)

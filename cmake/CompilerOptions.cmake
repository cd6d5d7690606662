# One interface target carries the project's warning, sanitizer and Qt
# hygiene settings; every qcode target links it instead of repeating them.
add_library(qcode_options INTERFACE)
add_library(qcode::options ALIAS qcode_options)

target_compile_definitions(qcode_options INTERFACE
    QT_NO_CONTEXTLESS_CONNECT
    QT_NO_CAST_FROM_ASCII
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_USE_QSTRINGBUILDER
    QT_NO_KEYWORDS
    QCODE_VERSION="${PROJECT_VERSION}")

if(MSVC)
    target_compile_options(qcode_options INTERFACE /W4 /permissive- /Zc:__cplusplus)
    if(QCODE_WERROR)
        target_compile_options(qcode_options INTERFACE /WX)
    endif()
else()
    target_compile_options(qcode_options INTERFACE -Wall -Wextra -Wpedantic)
    if(QCODE_WERROR)
        target_compile_options(qcode_options INTERFACE -Werror)
    endif()
endif()

# The debug tree holds a hundred-odd test programs, each linking the whole
# engine. Split DWARF keeps the debug information in one .dwo per object
# instead of a copy in every program, and lld, where it is installed, links
# several times faster and replaces the name tables split DWARF brings
# (.debug_gnu_pubnames, most of a program's size) with a compact gdb index:
# a test program goes from 170 MB to under 60 MB. Debuggers find the .dwo
# files beside the objects.
if(NOT MSVC AND NOT APPLE AND NOT WIN32)
    target_compile_options(qcode_options INTERFACE $<$<CONFIG:Debug>:-gsplit-dwarf>)
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=lld QCODE_HAVE_LLD)
    option(QCODE_USE_LLD "Link with lld where it is installed" ON)
    if(QCODE_HAVE_LLD AND QCODE_USE_LLD)
        target_link_options(qcode_options INTERFACE -fuse-ld=lld $<$<CONFIG:Debug>:-Wl,--gdb-index>)
    endif()
endif()

if(QCODE_SANITIZE)
    if(MSVC)
        target_compile_options(qcode_options INTERFACE /fsanitize=address)
    else()
        target_compile_options(qcode_options INTERFACE
            -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
        target_link_options(qcode_options INTERFACE -fsanitize=address,undefined)
    endif()
endif()

# ccache, where it is installed, makes rebuilds and several checkouts on one
# machine cheap; the build does not need it.
find_program(QCODE_CCACHE ccache)
if(QCODE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${QCODE_CCACHE})
endif()
# The bash grammar's generated parser is 10 MB of C.
if(QCODE_CCACHE AND NOT CMAKE_C_COMPILER_LAUNCHER)
    set(CMAKE_C_COMPILER_LAUNCHER ${QCODE_CCACHE})
endif()

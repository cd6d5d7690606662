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

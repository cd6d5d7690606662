# Code highlighting backends are optional: KF6SyntaxHighlighting where the
# distribution ships it (not Debian 12), else GNU Source-highlight, else plain.
find_package(KF6SyntaxHighlighting QUIET)
if(KF6SyntaxHighlighting_FOUND)
    set(QCODE_HAVE_KSYNTAXHIGHLIGHTING ON)
else()
    set(QCODE_HAVE_KSYNTAXHIGHLIGHTING OFF)
endif()

find_package(PkgConfig QUIET)
set(QCODE_HAVE_SOURCE_HIGHLIGHT OFF)
if(PkgConfig_FOUND)
    pkg_check_modules(SOURCE_HIGHLIGHT QUIET IMPORTED_TARGET source-highlight)
    if(SOURCE_HIGHLIGHT_FOUND)
        set(QCODE_HAVE_SOURCE_HIGHLIGHT ON)
    endif()
endif()

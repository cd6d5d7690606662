# Packages, made by CPack from the install rules (README.md, "Packaging"):
#   Linux    cpack -G DEB | RPM | TGZ   (tested: scripts/check-package.sh)
#   Windows  cpack -G NSIS              (after windeployqt, not built here)
#   macOS    cpack -G DragNDrop         (after macdeployqt, not built here)
# Included last from the top CMakeLists, once every install rule exists.
# There is no licence file yet, so no package names a licence: the optional
# fields are left out and RPM's mandatory one keeps CPack's "unknown".

set(CPACK_PACKAGE_NAME qcode)
set(CPACK_PACKAGE_VENDOR "The qcode developers")
set(CPACK_PACKAGE_CONTACT "The qcode developers <${PROJECT_HOMEPAGE_URL}/issues>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop coding agent that works on your project with your permission")
# No semicolons: CPack would read them as list separators.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "qcode is a native desktop coding agent. Open a project folder, type a "
    "request, drop files on the window and watch the answer stream in. The "
    "agent asks before it edits a file or runs a command. It speaks to "
    "Anthropic, OpenAI, Google Gemini and OpenAI-compatible servers, reads "
    "opencode.json and AGENTS.md, and has a headless mode, qcode run.")
set(CPACK_PACKAGE_HOMEPAGE_URL ${PROJECT_HOMEPAGE_URL})
set(CPACK_PACKAGE_INSTALL_DIRECTORY qcode)
# Start Menu (NSIS) entry: qcode.exe under the label "qcode".
set(CPACK_PACKAGE_EXECUTABLES qcode qcode)
# A RelWithDebInfo build carries its debug information; packages do not.
set(CPACK_STRIP_FILES ON)

# qcode-0.1.0-Linux-x86_64.tar.gz, …-Windows-AMD64.exe, …-Darwin-arm64.dmg;
# DEB and RPM follow their own conventions below.
set(CPACK_PACKAGE_FILE_NAME
    "${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")

if(WIN32)
    set(CPACK_GENERATOR NSIS)
elseif(APPLE)
    set(CPACK_GENERATOR DragNDrop)
else()
    set(CPACK_GENERATOR DEB TGZ)
    find_program(QCODE_RPMBUILD rpmbuild)
    if(QCODE_RPMBUILD)
        list(APPEND CPACK_GENERATOR RPM)
    endif()
endif()

# Debian and Ubuntu: qcode_0.1.0-1_amd64.deb. dpkg-shlibdeps (package
# dpkg-dev) computes Depends from the libraries the program links; the
# SQLite driver is a Qt plugin, loaded at run time, so it is named here.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
# ripgrep makes the search tools fast; git lets the agent see history.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ripgrep, git")

# Fedora, openSUSE: qcode-0.1.0-1.x86_64.rpm. rpmbuild's AutoReq computes
# Requires from the linked libraries; on Fedora the SQLite driver ships with
# qt6-qtbase, which those pull in.
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_GROUP "Development/Tools")
set(CPACK_RPM_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_PACKAGE_SUGGESTS "ripgrep, git")
# The folders the icons and entries go into belong to the system's own
# packages; the RPM must not claim them.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/share/applications /usr/share/metainfo /usr/share/icons /usr/share/icons/hicolor
    /usr/share/icons/hicolor/scalable /usr/share/icons/hicolor/scalable/apps)
foreach(size IN ITEMS 16 24 32 48 64 128 256 512)
    list(APPEND CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
        /usr/share/icons/hicolor/${size}x${size} /usr/share/icons/hicolor/${size}x${size}/apps)
endforeach()

# Windows: an NSIS installer with qcode's icon, a Start Menu shortcut, an
# uninstaller, and the offer to put qcode on PATH for `qcode run`.
set(CPACK_NSIS_PACKAGE_NAME qcode)
set(CPACK_NSIS_DISPLAY_NAME qcode)
set(CPACK_NSIS_MUI_ICON ${PROJECT_SOURCE_DIR}/packaging/windows/qcode.ico)
set(CPACK_NSIS_MUI_UNIICON ${PROJECT_SOURCE_DIR}/packaging/windows/qcode.ico)
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\qcode.exe")
set(CPACK_NSIS_MUI_FINISHPAGE_RUN qcode.exe)
set(CPACK_NSIS_URL_INFO_ABOUT ${PROJECT_HOMEPAGE_URL})
set(CPACK_NSIS_HELP_LINK ${PROJECT_HOMEPAGE_URL}/issues)
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH ON)
set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
# Without a licence of its own the page would show CPack's placeholder text.
set(CPACK_NSIS_IGNORE_LICENSE_PAGE ON)

# macOS: a disk image holding qcode.app beside a link to /Applications.
set(CPACK_DMG_VOLUME_NAME qcode)
if(APPLE)
    set(CPACK_PACKAGE_ICON ${PROJECT_SOURCE_DIR}/packaging/macos/qcode.icns)
endif()

# `cpack --config CPackSourceConfig.cmake` packs the sources, not build trees.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}")
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/\\\\.git$" "/build/" "/\\\\.cache/" "\\\\.swp$" "~$")

include(CPack)

# cmake -DCHECK=desktop|appstream -DDESKTOP_FILE=… -DMETAINFO_FILE=… -P ValidateMetadata.cmake
#
# Runs one validator on qcode's desktop integration files and fails on any
# finding above "pedantic". Prints "SKIPPED:" (which CTest reads as a skip)
# when the validator is not installed: these tools come from distribution
# packages a build does not need.

function(run_validator)
    execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE result)
    set(report "${output}${errors}")
    if(NOT report STREQUAL "")
        message("${report}")
    endif()
    set(validator_result "${result}" PARENT_SCOPE)
    set(validator_report "${report}" PARENT_SCOPE)
endfunction()

if(CHECK STREQUAL "desktop")
    find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
    if(NOT DESKTOP_FILE_VALIDATE)
        message("SKIPPED: desktop-file-validate is not installed (Debian package desktop-file-utils)")
        return()
    endif()
    run_validator(${DESKTOP_FILE_VALIDATE} ${DESKTOP_FILE})
    # It exits 0 on warnings and hints; they count here too.
    if(NOT validator_result EQUAL 0 OR NOT validator_report STREQUAL "")
        message(FATAL_ERROR "${DESKTOP_FILE} is not a clean desktop entry")
    endif()
    message("${DESKTOP_FILE}: valid")

elseif(CHECK STREQUAL "appstream")
    find_program(APPSTREAMCLI appstreamcli)
    if(NOT APPSTREAMCLI)
        message("SKIPPED: appstreamcli is not installed (Debian package appstream)")
        return()
    endif()
    execute_process(COMMAND ${APPSTREAMCLI} --version OUTPUT_VARIABLE version_text)
    string(REGEX MATCH "[0-9]+\\.[0-9]+(\\.[0-9]+)?" version "${version_text}")
    # The metadata names its developer both ways: <developer> for AppStream
    # 1.0, which deprecates <developer_name>, and <developer_name> for the
    # 0.x readers of older distributions, whose validator does not know
    # <developer> yet. --strict fails on everything else, infos included.
    if(version VERSION_GREATER_EQUAL 1.0)
        set(tolerated --override=developer-name-tag-deprecated=pedantic)
    else()
        set(tolerated --override=unknown-tag=pedantic)
    endif()
    run_validator(${APPSTREAMCLI} validate --no-net --pedantic --strict ${tolerated} ${METAINFO_FILE})
    if(NOT validator_result EQUAL 0)
        message(FATAL_ERROR "${METAINFO_FILE} fails appstreamcli ${version} validate --strict")
    endif()
    # The override above is for <developer> alone: any other unknown tag is
    # still a mistake.
    string(REGEX MATCHALL "unknown-tag [^\n]*" unknown "${validator_report}")
    list(REMOVE_ITEM unknown "unknown-tag developer")
    if(unknown)
        message(FATAL_ERROR "${METAINFO_FILE} has unknown tags: ${unknown}")
    endif()
    message("${METAINFO_FILE}: valid for appstreamcli ${version}")

else()
    message(FATAL_ERROR "CHECK must be desktop or appstream, not '${CHECK}'")
endif()

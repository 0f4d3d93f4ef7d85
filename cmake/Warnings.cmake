# rackscope_set_warnings(target): the project's warning and sanitizer flags.
function(rackscope_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
        -Wno-sign-conversion -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual)
    if(RACKSCOPE_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

if(RACKSCOPE_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()

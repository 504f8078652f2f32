# Warning flags in one place. CW_WERROR turns them into errors (on in CI via `make test`).
set(CW_WARNING_FLAGS
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Woverloaded-virtual -Wimplicit-fallthrough)
option(CW_WERROR "Treat warnings as errors" OFF)
if(CW_WERROR)
  list(APPEND CW_WARNING_FLAGS -Werror)
endif()

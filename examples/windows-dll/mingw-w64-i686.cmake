# CMake toolchain file: 32-bit Windows programs from Linux with Debian's mingw-w64, run
# under Wine (ctest, or CMAKE_CROSSCOMPILING_EMULATOR for custom commands).
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=$PWD/mingw-w64-i686.cmake -DFIXSTEER_DIR=...
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-w64-mingw32-gcc)
set(CMAKE_CXX_COMPILER i686-w64-mingw32-g++)
set(CMAKE_RC_COMPILER i686-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/i686-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR wine)

# CMake toolchain file: 64-bit Windows programs from Linux with Debian's mingw-w64, run
# under Wine (ctest, or CMAKE_CROSSCOMPILING_EMULATOR for custom commands).
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=$PWD/mingw-w64-x86_64.cmake -DFIXSTEER_DIR=...
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR wine)

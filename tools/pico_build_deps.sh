#!/usr/bin/env bash
# Debian packages the Pico firmware build needs (tools/pico_uf2.py, BUILD.txt of the MicroPython
# source bundle): the Arm cross compiler with newlib, CMake, a host C compiler (32-bit too). Installed when
# missing (as root; otherwise it says what to install). Quiet when all is there.
set -euo pipefail
missing=()
command -v arm-none-eabi-gcc >/dev/null || missing+=(gcc-arm-none-eabi)
[ -e /usr/lib/arm-none-eabi/include/stdio.h ] || [ -e /usr/lib/arm-none-eabi/newlib/libc.a ] || missing+=(libnewlib-arm-none-eabi)
[ -d /usr/lib/arm-none-eabi/include/c++ ] || missing+=(libstdc++-arm-none-eabi-newlib)
command -v cmake >/dev/null || missing+=(cmake)
command -v cc >/dev/null && command -v make >/dev/null || missing+=(build-essential)
command -v xz >/dev/null || missing+=(xz-utils)
# Optional: 32-bit host builds for the frozen unix port (tools/unix_frozen.py: objects the size
# they are on a 32-bit board). Without it that build is 64-bit and its test allows for that, so
# failing to install it fails nothing.
optional=()
if [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ]; then
    echo 'int main(void) { return 0; }' | cc -m32 -x c - -o /dev/null 2>/dev/null || optional+=(gcc-multilib)
fi
if [ ${#missing[@]} -eq 0 ]; then
    [ ${#optional[@]} -eq 0 ] && exit 0
    if [ "$(id -u)" = 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -q && apt-get install -y -q --no-install-recommends "${optional[@]}"; } >&2 \
            || echo "could not install ${optional[*]}: the frozen unix port builds 64-bit" >&2
    else
        echo "optional: ${optional[*]} (sudo apt-get install ${optional[*]}) for a 32-bit frozen unix port" >&2
    fi
    exit 0
fi
missing+=("${optional[@]}")
if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})" >&2
    exit 1
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2

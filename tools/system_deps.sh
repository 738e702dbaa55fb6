#!/usr/bin/env bash
# Debian packages the test suite needs besides .venv: the bitmap font the glyph subsets are built
# from (their byte-for-byte rebuild test). PostgreSQL and Chromium are installed on demand by
# tools/pg_test_server.sh and tools/chromium_headless.sh. Quiet when all is there.
set -euo pipefail
missing=()
[ -f /usr/share/fonts/X11/misc/wenquanyi_9pt.pcf ] || missing+=(xfonts-wqy)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})" >&2
    exit 1
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2

#!/usr/bin/env bash
# Debian's chromium, headless, with a fresh profile and no background traffic:
#   tools/chromium_headless.sh --dump-dom URL
#   tools/chromium_headless.sh --screenshot=out.png --window-size=1280,800 URL
# Installs the chromium package, and a small CJK font for Chinese names and fan names, when
# absent (as root).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then echo "chromium_headless: chromium is not installed and this is not root" >&2; exit 1; fi
    echo "chromium_headless: installing Debian's chromium" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q chromium >&2
fi
if [ "$(id -u)" = 0 ] && ! dpkg -s fonts-wqy-microhei >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-wqy-microhei >&2 || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-wqy-microhei >&2; }
fi
profile=$(mktemp -d /tmp/mt-chromium.XXXXXX)
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-default-apps --disable-extensions --no-default-browser-check --mute-audio \
    --user-data-dir="$profile" "$@"

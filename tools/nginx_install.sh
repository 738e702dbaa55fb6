#!/usr/bin/env bash
# Debian's nginx for the tests that run the server behind the documented proxy
# (tests/server/proxy.py starts its own instance on a free loopback port, then stops it).
# Installed without starting the distribution's service (policy-rc.d says no for the
# install's duration): nothing listens on port 80 afterwards. Prints nginx's path.
set -euo pipefail
found() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }; }
if p=$(found); then echo "$p"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "nginx is not installed and this is not root: apt-get install nginx" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
made=0
if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod 755 /usr/sbin/policy-rc.d; made=1; fi
trap '[ $made = 1 ] && rm -f /usr/sbin/policy-rc.d' EXIT
apt-get update -q >&2
apt-get install -y -q --no-install-recommends nginx >&2
found

#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (test/browser/*.spec.ts) when it is not there yet.
# Idempotent: does nothing when /usr/bin/chromium exists. Fails loudly otherwise, so the browser tests
# never silently skip.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
if [ ! -x /usr/bin/chromium ]; then
  echo "install-chromium: /usr/bin/chromium is still missing after apt-get install" >&2
  exit 1
fi
/usr/bin/chromium --version || true

#!/usr/bin/env bash
# Install what tests/test_spaces_browser.py needs: Debian's Chromium and the Python Playwright
# driver (pointed at /usr/bin/chromium by the tests), plus Gradio for the apps.
# Usage: scripts/install_browser.sh [VENV]   (default .venv). Run as root, or with sudo available.
# Playwright's own browser download (`playwright install`) is NOT used: it needs the open
# internet; Debian's chromium comes from the package mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-.venv}"
GRADIO_PIN="gradio==6.31.0"
PLAYWRIGHT_PIN="playwright==1.65.2"

SUDO=""
if [ "$(id -u)" != "0" ]; then
    SUDO="sudo"
fi
if ! command -v chromium >/dev/null 2>&1; then
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
fi
"$VENV/bin/python" -m pip install --quiet "$GRADIO_PIN" "$PLAYWRIGHT_PIN"
chromium --version 2>/dev/null
"$VENV/bin/python" -c "import gradio, playwright; print('gradio', gradio.__version__)"

#!/usr/bin/env bash
# Renders an HTML report to a PNG with headless Chromium, to check that its charts draw in a real browser.
#
#   Scripts/render-html-report.sh REPORT.html OUT.png
#
# The screenshot is WIDTH pixels wide (1200 by default) and as tall as the page. Network access is blocked
# while rendering, so anything the report failed to inline would show up missing. COLOR_SCHEME=dark renders
# the dark variant. Needs Debian's `chromium` package: apt-get install -y chromium
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 REPORT.html OUT.png" >&2
    exit 2
fi
report=$1
out=$2
width=${WIDTH:-1200}

if [ ! -f "$report" ]; then
    echo "error: no report at $report; write one with: stillpoint report --format html --output $report" >&2
    exit 1
fi
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chromium" ]; then
    echo "error: Chromium is not installed; install it with: apt-get update && apt-get install -y chromium" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

scheme=1   # Blink's light scheme; 0 is dark.
if [ "${COLOR_SCHEME:-light}" = dark ]; then scheme=0; fi

# A fresh profile each time, no sandbox (containers run as root), and a resolver that finds no host at all.
options=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
         --user-data-dir="$work/profile" --force-device-scale-factor=1 --force-color-profile=srgb
         --host-resolver-rules="MAP * ~NOTFOUND" --blink-settings=preferredColorScheme=$scheme)

# The report has no script, so a copy with one measures the page's height for the screenshot.
sed 's#</body>#<script>document.body.setAttribute("data-page-height", Math.ceil(document.documentElement.scrollHeight))</script></body>#' \
    "$report" > "$work/measure.html"
height=$("$chromium" "${options[@]}" --window-size="$width,1000" --dump-dom "file://$work/measure.html" 2>/dev/null \
    | grep -o 'data-page-height="[0-9]*"' | grep -o '[0-9][0-9]*' || true)
if [ -z "$height" ]; then
    echo "warning: could not measure the page; using a height of 3000 px" >&2
    height=3000
fi

cp "$report" "$work/report.html"
"$chromium" "${options[@]}" --window-size="$width,$height" --screenshot="$work/shot.png" "file://$work/report.html" \
    > "$work/chromium.log" 2>&1 || { cat "$work/chromium.log" >&2; exit 1; }
if [ ! -s "$work/shot.png" ]; then
    cat "$work/chromium.log" >&2
    echo "error: Chromium wrote no screenshot" >&2
    exit 1
fi
mv "$work/shot.png" "$out"
echo "wrote $out (${width}x${height})"

#!/usr/bin/env bash
# Writes the sample HTML report (a fabricated year of practice, from the StillpointReport tests) and its
# screenshot, the one in docs/report-screenshot.png.
#
#   Scripts/make-sample-report.sh [OUT.html [OUT.png]]
#
# By default the page goes to $TMPDIR/stillpoint-sample-report.html and the screenshot to
# docs/report-screenshot.png.
# SCRATCH_PATH picks the build directory (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
html=$(realpath -m "${1:-${TMPDIR:-/tmp}/stillpoint-sample-report.html}")
png=${2:-docs/report-screenshot.png}
mkdir -p "$(dirname "$html")"

rm -f "$html"
STILLPOINT_SAMPLE_HTML=$html swift test --scratch-path "${SCRATCH_PATH:-.build}" \
    --filter 'StillpointReportTests.HTMLReportRendererTests/writesTheSampleReportWhenAsked' >/dev/null
if [ ! -s "$html" ]; then
    echo "error: the test did not write $html" >&2
    exit 1
fi
echo "wrote $html"
Scripts/render-html-report.sh "$html" "$png"

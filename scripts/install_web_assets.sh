#!/usr/bin/env bash
# Installs the dashboard's charting library (Chart.js 4, UMD build) into app/web/vendor/.
#
# The repository holds only code written here, and dashboard pages must work without the
# internet, so the library is fetched once at setup time with npm and served by the API from
# a gitignored folder. Re-running is cheap: an installed copy of the pinned version is kept.
set -euo pipefail

CHART_VERSION="${CHART_VERSION:-4.4.7}"
root="$(cd "$(dirname "$0")/.." && pwd)"
vendor="$root/app/web/vendor"
stamp="$vendor/chart.version"

if [ -f "$vendor/chart.umd.js" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$CHART_VERSION" ]; then
    echo "chart.js $CHART_VERSION already installed in app/web/vendor"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "npm is required to install chart.js (e.g. apt-get install -y npm)" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm install --prefix "$work" --no-audit --no-fund --silent "chart.js@$CHART_VERSION"
built="$work/node_modules/chart.js/dist/chart.umd.js"
if [ ! -f "$built" ]; then
    echo "chart.js $CHART_VERSION has no dist/chart.umd.js; pick a 4.x version" >&2
    exit 1
fi
mkdir -p "$vendor"
cp "$built" "$vendor/chart.umd.js"
cp "$work/node_modules/chart.js/LICENSE.md" "$vendor/chart.LICENSE.md" 2>/dev/null || true
echo "$CHART_VERSION" > "$stamp"
echo "installed chart.js $CHART_VERSION into app/web/vendor"

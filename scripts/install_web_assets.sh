#!/usr/bin/env bash
# Installs the dashboard's charting library (Chart.js 4, UMD build) and Swagger UI (the
# swagger-ui-dist bundle behind /docs) into app/web/vendor/.
#
# The repository holds only code written here, and the dashboard and /docs must work without
# the internet, so the libraries are fetched once at setup time with npm and served by the API
# from a gitignored folder. Re-running is cheap: installed copies of the pinned versions are kept.
set -euo pipefail

CHART_VERSION="${CHART_VERSION:-4.4.7}"
SWAGGER_VERSION="${SWAGGER_VERSION:-5.35.0}"
SWAGGER_FILES=(swagger-ui-bundle.js swagger-ui.css favicon-32x32.png)
root="$(cd "$(dirname "$0")/.." && pwd)"
vendor="$root/app/web/vendor"
stamp="$vendor/chart.version"
swagger_stamp="$vendor/swagger.version"

chart_ok() { [ -f "$vendor/chart.umd.js" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$CHART_VERSION" ]; }
swagger_ok() { [ -f "$vendor/swagger-ui-bundle.js" ] && [ "$(cat "$swagger_stamp" 2>/dev/null)" = "$SWAGGER_VERSION" ]; }

if chart_ok && swagger_ok; then
    echo "chart.js $CHART_VERSION and swagger-ui-dist $SWAGGER_VERSION already installed in app/web/vendor"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "npm is required to install chart.js and swagger-ui-dist (e.g. apt-get install -y npm)" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$vendor"
if ! swagger_ok; then
    npm install --prefix "$work" --no-audit --no-fund --silent "swagger-ui-dist@$SWAGGER_VERSION"
    for name in "${SWAGGER_FILES[@]}"; do
        if [ ! -f "$work/node_modules/swagger-ui-dist/$name" ]; then
            echo "swagger-ui-dist $SWAGGER_VERSION has no $name; pick a 5.x version" >&2
            exit 1
        fi
        cp "$work/node_modules/swagger-ui-dist/$name" "$vendor/$name"
    done
    cp "$work/node_modules/swagger-ui-dist/LICENSE" "$vendor/swagger.LICENSE" 2>/dev/null || true
    echo "$SWAGGER_VERSION" > "$swagger_stamp"
    echo "installed swagger-ui-dist $SWAGGER_VERSION into app/web/vendor"
fi
if chart_ok; then
    exit 0
fi
npm install --prefix "$work" --no-audit --no-fund --silent "chart.js@$CHART_VERSION"
built="$work/node_modules/chart.js/dist/chart.umd.js"
if [ ! -f "$built" ]; then
    echo "chart.js $CHART_VERSION has no dist/chart.umd.js; pick a 4.x version" >&2
    exit 1
fi
cp "$built" "$vendor/chart.umd.js"
cp "$work/node_modules/chart.js/LICENSE.md" "$vendor/chart.LICENSE.md" 2>/dev/null || true
echo "$CHART_VERSION" > "$stamp"
echo "installed chart.js $CHART_VERSION into app/web/vendor"

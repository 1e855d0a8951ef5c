#!/usr/bin/env bash
# make test-deploy: the hosted scorebook deployed on this very machine and tried as a phone
# would (README, "Deploying"; needs root). In order:
#   1. DEPLOY_DOMAIN (scorebook-e2e.test) is pointed at 127.0.0.1 in /etc/hosts;
#   2. deploy/deploy.sh runs with TLS=internal (Caddy's own certificate authority), then
#      again, as an upgrade would: the second run must keep the secret key and go through;
#   3. the units it wrote pass `systemd-analyze verify`;
#   4. deploy/test_hosted.py starts what each unit runs (where systemd is not the init
#      process: deploy/units.py) and drives Debian's Chromium against https://DOMAIN/.
# Everything it started is stopped again (and PostgreSQL too, if it was not running
# before); the /etc/hosts line is taken out. The deployment itself (/opt/scorebook, the
# database, the units) stays, as on a server: a second run is an upgrade of it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DOMAIN=${DEPLOY_DOMAIN:-scorebook-e2e.test}
MARK="# scorebook make test-deploy"
[ "$(id -u)" = 0 ] || { echo "make test-deploy needs root (it deploys onto this machine)" >&2; exit 1; }
started=$(date +%s)

pg_was_online=0
if command -v pg_lsclusters >/dev/null && pg_lsclusters -h 2>/dev/null | awk '$4 == "online"' | grep -q .; then
    pg_was_online=1
fi

cleanup() {
    sed -i "\|$MARK\$|d" /etc/hosts
    if [ "$pg_was_online" = 0 ] && command -v pg_lsclusters >/dev/null; then
        pg_lsclusters -h | awk '$4 == "online" {print $1, $2}' | while read -r version cluster; do
            pg_ctlcluster "$version" "$cluster" stop || true
        done
    fi
}
trap cleanup EXIT

# --- 1. The test domain ---------------------------------------------------------------
sed -i "\|$MARK\$|d" /etc/hosts
echo "127.0.0.1 $DOMAIN $MARK" >> /etc/hosts

# The test's own tools: Debian's Chromium, and NSS's certutil (its trust store).
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v certutil >/dev/null || need+=(libnss3-tools)
if [ "${#need[@]}" -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- 2. Deploy, twice ------------------------------------------------------------------
echo "=== make deploy DOMAIN=$DOMAIN TLS=internal"
DOMAIN=$DOMAIN TLS=internal bash deploy/deploy.sh
key=$(sha256sum /etc/scorebook/secret_key)
echo "=== make deploy again (an upgrade)"
DOMAIN=$DOMAIN TLS=internal bash deploy/deploy.sh
[ "$(sha256sum /etc/scorebook/secret_key)" = "$key" ] \
    || { echo "the second deploy changed the secret key" >&2; exit 1; }

# --- 3. The units ----------------------------------------------------------------------
echo "=== systemd-analyze verify"
units=(/etc/systemd/system/scorebook-web-1.service /etc/systemd/system/scorebook-web-2.service
       /etc/systemd/system/scorebook-worker.service /etc/systemd/system/scorebook-backup.service
       /etc/systemd/system/scorebook-backup.timer)
out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify "${units[@]}" 2>&1) || {
    echo "$out" >&2; echo "systemd-analyze verify refused the units" >&2; exit 1; }
# (it also reads the units they name: Debian's postgresql and redis-server; only what it
# says of ours counts)
if echo "$out" | grep -i "scorebook"; then
    echo "systemd-analyze verify has something to say about the units (above)" >&2; exit 1
fi
.venv/bin/python deploy/units.py show "${units[@]:0:4}" caddy.service redis-server.service

# --- 4. The site, from a phone ----------------------------------------------------------
echo "=== the site at https://$DOMAIN/ in Chromium"
DEPLOY_DOMAIN=$DOMAIN .venv/bin/python -m pytest -q -p no:cacheprovider --durations=8 deploy/test_hosted.py
echo "=== make test-deploy passed in $(( $(date +%s) - started )) s"

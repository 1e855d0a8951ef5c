#!/usr/bin/env bash
# The hosted scorebook on one Debian server, from bare: `sudo make deploy DOMAIN=scores.example.org`
# (README, "Deploying"). Safe to run again: it is also the upgrade (new code, migrations,
# a rolling restart, `flask scorebook verify`). Everything it makes:
#
#   /opt/scorebook/app        the code (a copy of this checkout), run from here
#   /opt/scorebook/venv       Python packages, exactly requirements/deploy.txt (hashes)
#   /var/lib/scorebook        the app's instance folder (job uploads), user scorebook
#   /etc/scorebook/           secret_key (made once, kept), scorebook.env (the settings)
#   /var/backups/scorebook/   daily pg_dump files, kept BACKUP_DAYS days
#   /etc/systemd/system/      scorebook-web-1, -web-2 (gunicorn), scorebook-worker (jobs),
#                             scorebook-backup.service + .timer (daily)
#   /etc/caddy/Caddyfile      HTTPS for DOMAIN, load-balancing the two gunicorns
#   PostgreSQL role and database "scorebook" (peer authentication: no password)
#
# Settings (environment or make variables): DOMAIN (required); TLS=internal for Caddy's
# own certificate authority (a test, a LAN) instead of a public certificate; EMAIL for the
# certificate authority's notices; WORKERS (2) and THREADS (4) per gunicorn instance;
# BACKUP_DAYS (14). Needs root.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOMAIN=${DOMAIN:-}
TLS=${TLS:-auto}
EMAIL=${EMAIL:-}
WORKERS=${WORKERS:-2}
THREADS=${THREADS:-4}
BACKUP_DAYS=${BACKUP_DAYS:-14}
PORTS=(8001 8002)

APP_USER=scorebook
DB_NAME=scorebook
BASE=/opt/scorebook
APP=$BASE/app
VENV=$BASE/venv
DATA=/var/lib/scorebook
ETC=/etc/scorebook
BACKUPS=/var/backups/scorebook
UNITS=/etc/systemd/system

say() { printf '\n== %s\n' "$*"; }
fail() { echo "deploy: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run it as root: sudo make deploy DOMAIN=$DOMAIN"
[ -n "$DOMAIN" ] || fail "say which name the site has: make deploy DOMAIN=scores.example.org"
[[ "$DOMAIN" =~ ^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$ ]] \
    || fail "DOMAIN must be a host name such as scores.example.org, not '$DOMAIN'"
case "$TLS" in auto|internal) ;; *) fail "TLS must be auto or internal, not '$TLS'" ;; esac
[[ "$WORKERS" =~ ^[1-9][0-9]?$ && "$THREADS" =~ ^[1-9][0-9]?$ && "$BACKUP_DAYS" =~ ^[1-9][0-9]{0,3}$ ]] \
    || fail "WORKERS, THREADS and BACKUP_DAYS must be whole numbers above 0"

# systemd runs the services where it is the init process (a real server); in a container
# or CI without it, the units are written and checked, and whoever runs them starts them.
systemd_runs() { [ -d /run/systemd/system ]; }

# --- 1. Debian's packages --------------------------------------------------------------
say "Debian packages: postgresql, caddy, redis-server, python3-venv"
packages=(postgresql caddy redis-server python3-venv rsync)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- 2. The system user and the folders ------------------------------------------------
say "User $APP_USER and folders"
if ! id "$APP_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$DATA" --shell /usr/sbin/nologin "$APP_USER"
fi
install -d -o root -g root -m 0755 "$BASE"
install -d -o "$APP_USER" -g "$APP_USER" -m 0750 "$DATA" "$DATA/instance" "$BACKUPS"
install -d -o root -g "$APP_USER" -m 0750 "$ETC"

# --- 3. The code and its Python packages -----------------------------------------------
say "The code in $APP, the packages in $VENV"
rsync -a --delete --exclude /.git --exclude /.venv --exclude /instance --exclude __pycache__ \
    --exclude .mypy_cache --exclude .ruff_cache --exclude .pytest_cache --exclude .hypothesis \
    --exclude '*.mo' "$SRC/" "$APP/"
ln -sfn "$DATA/instance" "$APP/instance"
chown -R root:root "$APP"
if [ ! -x "$VENV/bin/python" ]; then
    /usr/bin/python3 -m venv "$VENV"
fi
lock_sum=$(sha256sum "$APP/requirements/deploy.txt" | cut -d' ' -f1)
if [ "$(cat "$VENV/.installed" 2>/dev/null)" != "$lock_sum" ]; then
    "$VENV/bin/python" -m pip install --disable-pip-version-check --quiet --quiet --no-input --root-user-action=ignore \
        --require-hashes -r "$APP/requirements/deploy.txt"
    echo "$lock_sum" > "$VENV/.installed"
fi
"$VENV/bin/pybabel" compile -d "$APP/translations" >/dev/null 2>&1 \
    || "$VENV/bin/pybabel" compile -d "$APP/translations"

# --- 4. PostgreSQL: the role and the database ------------------------------------------
say "PostgreSQL: role and database $DB_NAME"
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
    pg_createcluster "$version" main >/dev/null
fi
if systemd_runs; then
    systemctl enable --now -q "postgresql@$version-main" postgresql
elif ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
    pg_ctlcluster "$version" main start
fi
pg_port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
for _ in $(seq 1 60); do
    runuser -u postgres -- psql -p "$pg_port" -tAc 'select 1' >/dev/null 2>&1 && break
    sleep 1
done
psql_admin() { runuser -u postgres -- psql -p "$pg_port" -v ON_ERROR_STOP=1 -tAq "$@"; }
if [ "$(psql_admin -c "select 1 from pg_roles where rolname = '$APP_USER'")" != 1 ]; then
    psql_admin -c "create role $APP_USER login"
fi
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$DB_NAME'")" != 1 ]; then
    psql_admin -c "create database $DB_NAME owner $APP_USER"
fi

# --- 5. The settings: the secret key made once, the environment file --------------------
say "Settings in $ETC"
if [ ! -s "$ETC/secret_key" ]; then
    (umask 027; "$VENV/bin/python" -c 'import secrets; print(secrets.token_hex(32))' \
        > "$ETC/secret_key.new")
    mv "$ETC/secret_key.new" "$ETC/secret_key"
fi
chown root:"$APP_USER" "$ETC/secret_key"; chmod 0640 "$ETC/secret_key"
(umask 027; cat > "$ETC/scorebook.env.new" <<ENV
# Written by deploy/deploy.sh on every run: change the make variables, not this file
# (the site's own settings go in $DATA/instance/config.py).
DATABASE_URL="postgresql+psycopg://$APP_USER@/$DB_NAME?host=/var/run/postgresql&port=$pg_port"
SECRET_KEY="$(cat "$ETC/secret_key")"
REDIS_URL="redis://127.0.0.1:6379/0"
PUBLIC_URL="https://$DOMAIN"
TRUSTED_PROXIES=1
SESSION_COOKIE_SECURE=true
HSTS_MAX_AGE=31536000
THREADS=$THREADS
JOB_WORKERS=0
RATINGS_CATCH_UP=job
# pg_dump's (deploy/backup.sh): the same database, over the same socket
PGHOST=/var/run/postgresql
PGPORT=$pg_port
PGDATABASE=$DB_NAME
ENV
)
chown root:"$APP_USER" "$ETC/scorebook.env.new"
mv "$ETC/scorebook.env.new" "$ETC/scorebook.env"

# Run a command as the app's user, in the app's folder, with the app's settings.
as_app() {
    (cd "$APP" && set -a && . "$ETC/scorebook.env" && set +a && runuser -u "$APP_USER" -- "$@")
}

# --- 6. The database: a backup before an upgrade, the migrations, the check --------------
upgrading=0
if [ "$(runuser -u postgres -- psql -p "$pg_port" -d "$DB_NAME" -tAc \
        "select to_regclass('public.alembic_version') is not null")" = t ]; then
    upgrading=1
    say "A backup before the upgrade"
    as_app "$APP/deploy/backup.sh" "$BACKUPS" "$BACKUP_DAYS"
fi
say "Migrations"
as_app "$VENV/bin/flask" --app app db upgrade

# --- 7. systemd units, Caddy -------------------------------------------------------------
say "systemd units and Caddy's configuration"
write_unit() {  # name, then the text (on stdin)
    local tmp
    tmp=$(mktemp)
    cat > "$tmp"
    install -m 0644 "$tmp" "$UNITS/$1"
    rm -f "$tmp"
}
n=0
for port in "${PORTS[@]}"; do
    n=$((n + 1))
    write_unit "scorebook-web-$n.service" <<UNIT
[Unit]
Description=Rummy Scorebook, web instance $n (gunicorn on 127.0.0.1:$port)
After=network.target postgresql.service redis-server.service
Wants=postgresql.service redis-server.service

[Service]
Type=simple
User=$APP_USER
Group=$APP_USER
WorkingDirectory=$APP
EnvironmentFile=$ETC/scorebook.env
ExecStart=$VENV/bin/gunicorn --config python:scorebook.serving --workers $WORKERS --bind 127.0.0.1:$port app:create_app()
ExecReload=/bin/kill -HUP \$MAINPID
KillMode=mixed
TimeoutStopSec=30
Restart=always
RestartSec=2
LimitNOFILE=8192
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=full
ProtectHome=true

[Install]
WantedBy=multi-user.target
UNIT
done
write_unit scorebook-worker.service <<UNIT
[Unit]
Description=Rummy Scorebook, background jobs (league imports, rating replays)
After=network.target postgresql.service
Wants=postgresql.service

[Service]
Type=simple
User=$APP_USER
Group=$APP_USER
WorkingDirectory=$APP
EnvironmentFile=$ETC/scorebook.env
ExecStart=$VENV/bin/python -m scorebook.worker
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=always
RestartSec=2
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=full
ProtectHome=true

[Install]
WantedBy=multi-user.target
UNIT
write_unit scorebook-backup.service <<UNIT
[Unit]
Description=Rummy Scorebook, a pg_dump of the database into $BACKUPS (kept $BACKUP_DAYS days)
After=postgresql.service

[Service]
Type=oneshot
User=$APP_USER
Group=$APP_USER
WorkingDirectory=$APP
EnvironmentFile=$ETC/scorebook.env
ExecStart=$APP/deploy/backup.sh $BACKUPS $BACKUP_DAYS
UNIT
write_unit scorebook-backup.timer <<UNIT
[Unit]
Description=Rummy Scorebook, the daily backup

[Timer]
OnCalendar=*-*-* 03:30:00
RandomizedDelaySec=30min
Persistent=true

[Install]
WantedBy=timers.target
UNIT

upstreams=""
for port in "${PORTS[@]}"; do upstreams+=" 127.0.0.1:$port"; done
if [ -f /etc/caddy/Caddyfile ] && ! grep -q "deploy/deploy.sh" /etc/caddy/Caddyfile \
        && [ ! -f /etc/caddy/Caddyfile.before-scorebook ]; then
    cp -p /etc/caddy/Caddyfile /etc/caddy/Caddyfile.before-scorebook
fi
{
    echo "# Written by the scorebook's deploy/deploy.sh on every run (DOMAIN=$DOMAIN TLS=$TLS)."
    echo "{"
    echo "	grace_period 10s"
    [ -n "$EMAIL" ] && echo "	email $EMAIL"
    [ "$TLS" = internal ] && echo "	skip_install_trust"
    echo "}"
    echo
    echo "$DOMAIN {"
    [ "$TLS" = internal ] && echo "	tls internal"
    cat <<CADDY
	# Two gunicorn instances, taken in turn; a request that cannot reach one (restarting)
	# is sent to the other. No access log: invite links (/join/...) stay out of logs.
	reverse_proxy$upstreams {
		lb_policy round_robin
		lb_try_duration 15s
		lb_try_interval 250ms
		fail_duration 10s
	}
}
CADDY
} > /etc/caddy/Caddyfile.new
chmod 0644 /etc/caddy/Caddyfile.new
# (checked as Caddy's own user: its certificate authority's files stay its own)
validate() { runuser -u caddy -- env HOME=/var/lib/caddy caddy validate --adapter caddyfile \
    --config /etc/caddy/Caddyfile.new "$@"; }
validate >/dev/null 2>&1 || { validate || true; fail "Caddy refused the Caddyfile"; }
mv /etc/caddy/Caddyfile.new /etc/caddy/Caddyfile

# --- 8. Start, or restart one instance at a time ----------------------------------------
web_units=()
for i in $(seq 1 "${#PORTS[@]}"); do web_units+=("scorebook-web-$i.service"); done
if systemd_runs; then
    say "Starting the services"
    systemctl daemon-reload
    systemctl enable -q redis-server caddy scorebook-worker.service scorebook-backup.timer "${web_units[@]}"
    systemctl start redis-server
    i=0
    for unit in "${web_units[@]}"; do  # one at a time: the other answers meanwhile
        systemctl restart "$unit"
        port=${PORTS[$i]}; i=$((i + 1))
        up=0
        for _ in $(seq 1 120); do
            if "$VENV/bin/python" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/manifest.webmanifest', timeout=2)" \
                    >/dev/null 2>&1; then
                up=1; break
            fi
            sleep 0.5
        done
        [ "$up" = 1 ] || fail "$unit does not answer on 127.0.0.1:$port: see journalctl -u $unit"
    done
    systemctl restart scorebook-worker.service
    systemctl start scorebook-backup.timer
    systemctl reload-or-restart caddy
else
    say "systemd is not running on this machine: the units are written, not started"
    echo "  (make test-deploy starts the commands they run itself)"
fi

# --- 9. The check of every stored hand ---------------------------------------------------
say "flask scorebook verify"
if ! as_app "$VENV/bin/flask" --app app scorebook verify; then
    fail "flask scorebook verify found stored hands that do not add up (listed above)"
fi
[ "$upgrading" = 1 ] && what=upgraded || what=installed
say "The scorebook is $what: https://$DOMAIN/"

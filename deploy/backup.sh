#!/usr/bin/env bash
# A backup of the scorebook's PostgreSQL database: `backup.sh FOLDER DAYS` writes
# FOLDER/scorebook-YYYY-MM-DDTHHMMSS.dump (pg_dump's custom format: a consistent snapshot,
# taken while the site runs) and deletes the dumps older than DAYS days. Run daily by
# scorebook-backup.timer, as the user scorebook (PostgreSQL's peer authentication), with
# PGHOST, PGPORT and PGDATABASE from /etc/scorebook/scorebook.env; deploy.sh runs it
# before an upgrade. Restore: README, "Deploying" (pg_restore).
set -euo pipefail
folder=${1:?backup.sh FOLDER DAYS}
days=${2:?backup.sh FOLDER DAYS}
[[ "$days" =~ ^[1-9][0-9]*$ ]] || { echo "backup.sh: DAYS must be a whole number above 0" >&2; exit 2; }
name="scorebook-$(date -u +%Y-%m-%dT%H%M%S).dump"
umask 077
# written under another name first: a dump cut short is never taken for a backup
pg_dump --format=custom --file="$folder/.$name.partial" "${PGDATABASE:-scorebook}"
mv "$folder/.$name.partial" "$folder/$name"
find "$folder" -maxdepth 1 -name 'scorebook-*.dump' -mtime "+$((days - 1))" -delete
find "$folder" -maxdepth 1 -name '.scorebook-*.dump.partial' -mmin +1440 -delete
echo "backup: $folder/$name ($(du -h "$folder/$name" | cut -f1))"

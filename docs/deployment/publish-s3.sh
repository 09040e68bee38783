#!/bin/sh
# PUBLISH_COMMAND example: upload a finished storefront build to an S3 bucket behind a CDN.
#   PUBLISH_COMMAND='sh docs/deployment/publish-s3.sh'  (with SITE_BUCKET and CDN_DISTRIBUTION_ID set)
#   PUBLISH_EDITS=changes                                (an edit uploads only the files it changed)
# npm start runs it after each successful build, before the folder goes live on the replica:
#   $1 / $PUBLISH_DIR   the folder: the whole site (HTML, /_astro assets, their .br/.gz twins, .build.json),
#                       or, for an edit with PUBLISH_MODE=changes, only the files it wrote
#   $PUBLISH_MODE       full | changes
#   $PUBLISH_REMOVED    (changes) a file listing the site files the edit removed, one per line
#   $PUBLISH_VERSION    the catalogue version it was built from
# A non-zero exit marks the build failed (the console shows the last output) and nothing changes:
# the replica keeps serving its previous build, the bucket keeps what it had.
set -eu
dir="${1:-$PUBLISH_DIR}"
: "${SITE_BUCKET:?set SITE_BUCKET, e.g. s3://luxe-storefront}"
pages='public, max-age=0, s-maxage=31536000, must-revalidate'

if [ "${PUBLISH_MODE:-full}" = changes ]; then
  # An edit: its pages (and any new photos) up, the removed ones down, and only those paths invalidated.
  if [ -d "$dir/photos" ]; then
    aws s3 cp "$dir/photos" "$SITE_BUCKET/photos" --recursive --cache-control 'public, max-age=31536000, immutable' --only-show-errors
  fi
  aws s3 cp "$dir" "$SITE_BUCKET" --recursive --exclude 'photos/*' --exclude '*.br' --exclude '*.gz' --exclude '.build*.json' \
    --cache-control "$pages" --only-show-errors
  paths=$(cd "$dir" && find . -type f ! -path './photos/*' ! -name '*.br' ! -name '*.gz' ! -name '.build*.json' | sed 's|^\.||; s|index\.html$||')
  while IFS= read -r file; do
    [ -n "$file" ] || continue
    case "$file" in *.br|*.gz) continue ;; esac
    aws s3 rm "$SITE_BUCKET/$file" --only-show-errors
    paths="$paths
/$(printf '%s' "$file" | sed 's|index\.html$||')"
  done < "${PUBLISH_REMOVED:-/dev/null}"
  if [ -n "${CDN_DISTRIBUTION_ID:-}" ] && [ -n "$paths" ]; then
    # shellcheck disable=SC2086
    aws cloudfront create-invalidation --distribution-id "$CDN_DISTRIBUTION_ID" --paths $paths >/dev/null
  fi
  echo "published the changes of catalogue version ${PUBLISH_VERSION:-?} from $dir"
  exit 0
fi

# Hashed assets first and for a year, so no page can point at an asset not yet uploaded.
aws s3 sync "$dir/_astro" "$SITE_BUCKET/_astro" --exclude '*.br' --exclude '*.gz' \
  --cache-control 'public, max-age=31536000, immutable' --only-show-errors
# Photos: content-hash names, never changed under one.
if [ -d "$dir/photos" ]; then
  aws s3 sync "$dir/photos" "$SITE_BUCKET/photos" --cache-control 'public, max-age=31536000, immutable' --only-show-errors
fi
# Pages and everything else: revalidated (the CDN keeps them until the invalidation below).
aws s3 sync "$dir" "$SITE_BUCKET" --exclude '_astro/*' --exclude 'photos/*' --exclude '*.br' --exclude '*.gz' --exclude '.build*.json' \
  --cache-control "$pages" --delete --only-show-errors
# Stale assets of older builds stay a while for pages still cached in browsers; prune them separately.

if [ -n "${CDN_DISTRIBUTION_ID:-}" ]; then
  aws cloudfront create-invalidation --distribution-id "$CDN_DISTRIBUTION_ID" --paths '/*' >/dev/null
fi
echo "published catalogue version ${PUBLISH_VERSION:-?} from $dir"

#!/bin/sh
# PUBLISH_COMMAND example: upload a finished storefront build to an S3 bucket behind a CDN.
#   PUBLISH_COMMAND='sh docs/deployment/publish-s3.sh'  (with SITE_BUCKET and CDN_DISTRIBUTION_ID set)
# npm start runs it after each successful build, before the folder goes live on the replica:
#   $1 / $PUBLISH_DIR   the finished folder (HTML, /_astro assets, their .br/.gz twins, .build.json)
#   $PUBLISH_VERSION    the catalogue version it was built from
# A non-zero exit marks the build failed (the console shows the last output) and nothing changes:
# the replica keeps serving its previous build, the bucket keeps what it had.
set -eu
dir="${1:-$PUBLISH_DIR}"
: "${SITE_BUCKET:?set SITE_BUCKET, e.g. s3://luxe-storefront}"

# Hashed assets first and for a year, so no page can point at an asset not yet uploaded.
aws s3 sync "$dir/_astro" "$SITE_BUCKET/_astro" --exclude '*.br' --exclude '*.gz' \
  --cache-control 'public, max-age=31536000, immutable' --only-show-errors
# Pages and everything else: revalidated (the CDN keeps them until the invalidation below).
aws s3 sync "$dir" "$SITE_BUCKET" --exclude '_astro/*' --exclude '*.br' --exclude '*.gz' --exclude '.build.json' \
  --cache-control 'public, max-age=0, s-maxage=31536000, must-revalidate' --delete --only-show-errors
# Stale assets of older builds stay a while for pages still cached in browsers; prune them separately.

if [ -n "${CDN_DISTRIBUTION_ID:-}" ]; then
  aws cloudfront create-invalidation --distribution-id "$CDN_DISTRIBUTION_ID" --paths '/*' >/dev/null
fi
echo "published catalogue version ${PUBLISH_VERSION:-?} from $dir"

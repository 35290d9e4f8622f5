#!/bin/sh
# Assembles the runtime tree of one deployable, inside the image build (deploy/Dockerfile,
# stage "pruned"), after the build stage has compiled every package to dist/.
#
#   sh deploy/assemble.sh <edge|router|billing|conversations|batch|workers|vendor-sim|migrate> <out-dir>
#
# 1. Drops the full (dev) install and installs, offline from the store the build stage filled,
#    only the production dependencies of the chosen package and of the workspace packages it
#    depends on (`--filter <pkg>...`). pnpm links workspace:* dependencies as relative
#    symlinks, so the tree keeps working as long as the repository layout is kept.
# 2. Copies into <out-dir>, in the repository layout: the root package.json and node_modules,
#    then package.json, dist/ and node_modules/ of every selected workspace package, and
#      - for a service: protos/ (read at run time from PROTOS_DIR=/app/protos);
#      - for migrate: libs/db and every committed Prisma folder (schema + migrations/*.sql)
#        under libs/ and services/, which libs/db/dist/migrate-cli.js applies.
set -eu

target="${1:?usage: assemble.sh <service|migrate> <out-dir>}"
out="${2:?usage: assemble.sh <service|migrate> <out-dir>}"
store="${PNPM_STORE_DIR:-/pnpm/store}"

case "$target" in
  migrate) filter='@svc/db...' ;;
  *)
    if [ ! -f "services/$target/package.json" ]; then
      echo "assemble.sh: no service named '$target' (services/$target/package.json is missing)" >&2
      exit 64
    fi
    filter="@svc/service-$target..."
    ;;
esac

# 1. production-only install of the selected packages
find . -name node_modules -type d -prune -exec rm -rf {} +
pnpm install --prod --frozen-lockfile --offline --store-dir "$store" --filter "$filter"

# the selected workspace packages, as paths relative to the repository root
dirs=$(pnpm ls -r --depth -1 --json --filter "$filter" \
  | node -e 'const p=require("path");for(const x of JSON.parse(require("fs").readFileSync(0,"utf8")))console.log(p.relative(process.cwd(),x.path))')
if [ -z "$dirs" ]; then
  echo "assemble.sh: the filter $filter selected no package" >&2
  exit 1
fi

# 2. copy what runs
mkdir -p "$out"
cp -a package.json "$out/"
if [ -d node_modules ]; then cp -a node_modules "$out/"; fi
for dir in $dirs; do
  if [ ! -d "$dir/dist" ]; then
    echo "assemble.sh: $dir/dist is missing (did tsc -b run?)" >&2
    exit 1
  fi
  mkdir -p "$out/$dir"
  cp -a "$dir/package.json" "$dir/dist" "$out/$dir/"
  if [ -d "$dir/node_modules" ]; then cp -a "$dir/node_modules" "$out/$dir/"; fi
  # Data a package loads at run time (the router's classifier weights and word vectors); the training corpus stays out.
  if [ -d "$dir/data" ]; then
    mkdir -p "$out/$dir/data"
    find "$dir/data" -maxdepth 1 -type f \( -name 'weights*.json' -o -name 'word-vectors.bin' \) -exec cp -a {} "$out/$dir/data/" \;
  fi
done

if [ "$target" = migrate ]; then
  found=0
  for prisma in libs/*/prisma services/*/prisma; do
    [ -d "$prisma" ] || continue
    mkdir -p "$out/$prisma"
    cp -a "$prisma/." "$out/$prisma/"
    found=1
  done
  if [ "$found" = 0 ]; then
    echo "assemble.sh: no prisma/ folder with migrations found" >&2
    exit 1
  fi
else
  cp -a protos "$out/"
fi

# compiled tests and build bookkeeping are not needed at run time
find "$out" -path "$out/node_modules" -prune -o \
  \( -name '*.test.js' -o -name '*.test.js.map' -o -name '*.test.d.ts' -o -name '*.test.d.ts.map' -o -name '*.tsbuildinfo' \) \
  -type f -exec rm -f {} +

echo "assemble.sh: $target assembled in $out:" >&2
echo "$dirs" | sed 's/^/  /' >&2

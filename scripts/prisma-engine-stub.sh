#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded here.
# `prisma generate` only checks that an executable exists; migrations are applied by
# libs/db (committed SQL), so this is never asked to do real work.
echo "svc: the Prisma schema engine is not used; migrations are applied by 'npm run migrate'" >&2
exit 1

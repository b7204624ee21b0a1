#!/usr/bin/env bash
# Builds the DocC documentation of the public modules offline, with the toolchain's own `docc`, into
# one static site (.build/docs/site), and fails (naming each problem) when:
#
#   - an article's Swift listing has no compiled counterpart (Scripts/check-doc-listings.py);
#   - docc warns about anything: a broken symbol or article link, a malformed page (--warnings-as-errors);
#   - a public symbol has no doc comment, or a landing page leaves a top-level symbol out of its topics
#     (Scripts/docs-symbols.py).
#
#   Scripts/build-docs.sh
#   Scripts/build-docs.sh && python3 -m http.server -d .build/docs/site 8000   # then open
#                                                 # http://localhost:8000/documentation/boutiquedb
#   BOUTIQUE_DOCS_BASE_PATH=/BoutiqueDB Scripts/build-docs.sh   # for a site served under /BoutiqueDB
#
# Which symbols must have a doc comment. docc itself does not fail on an undocumented symbol, so the
# symbol graphs are read: every symbol whose access level is public or open and that is declared in a
# source file of a documented module must have a doc comment of its own (a comment whose module is the
# symbol's, with text in it), except
#   - symbols the compiler writes or copies: those without a source location (a synthesized `==`,
#     `init(rawValue:)`, `hash(into:)`, the standard library's members of Int or String) and copies
#     marked `::SYNTHESIZED::` (a member inherited from a protocol extension or a superclass, which is
#     checked where it is declared);
#   - implementations of a protocol requirement (a `memberOf` or `defaultImplementationOf` relationship
#     with a `sourceOrigin`): `Statement.query`, `ChangeToken.description`, `DatabaseActor.unownedExecutor`.
#     Their page shows the requirement's documentation (--enable-inherited-docs), which is where what
#     they do is specified;
#   - symbols of modules documented in another archive (re-exported ones), which are checked there.
# Enum cases, initializers, result-builder methods and operators are not exempt.
#
# Symbol graphs come from a build with its own scratch path (.build/docs), so that the flags do not make
# the normal build (.build) start over. That build also compiles the documentation's listings
# (BoutiqueDocumentationListings, with warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docs
graphs="$PWD/$scratch/symbol-graphs"
base_path="${BOUTIQUE_DOCS_BASE_PATH:-/}"
modules=(BoutiqueSQLite BoutiqueDB BoutiqueSync BoutiqueSyncServer)

docc="${DOCC:-}"
if [ -z "$docc" ]; then
    swift_path="$(command -v swift)"
    toolchain_bin="$(dirname "$(readlink -f "$swift_path")")"
    if [ -x "$toolchain_bin/docc" ]; then docc="$toolchain_bin/docc"; else docc="$(command -v docc || true)"; fi
fi
if [ -z "$docc" ] || [ ! -x "$docc" ]; then
    echo "error: docc not found beside swift; set DOCC to its path" >&2
    exit 1
fi

started=$(date +%s)
# The HTTP front end is part of the package only where GNU libmicrohttpd is installed (Package.swift).
package_description=$(swift package --scratch-path "$scratch" dump-package)
if grep -q '"BoutiqueSyncHTTP"' <<<"$package_description"; then
    modules+=(BoutiqueSyncHTTP)
else
    echo "note: this package has no BoutiqueSyncHTTP (GNU libmicrohttpd is not installed): its pages are left out"
fi
python3 Scripts/check-doc-listings.py

mkdir -p "$graphs"
if ! swift build --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -emit-extension-block-symbols >"$scratch/build.log" 2>&1; then
    grep -E "error:" "$scratch/build.log" >&2 || tail -40 "$scratch/build.log" >&2
    echo "error: the build for the symbol graphs failed (log: $scratch/build.log)" >&2
    exit 1
fi

python3 Scripts/docs-symbols.py "$graphs" "$scratch/archive-graphs" "${modules[@]}"

rm -rf "$scratch/archives" "$scratch/site"
mkdir -p "$scratch/archives"
dependencies=()
for module in "${modules[@]}"; do
    echo "docc convert $module"
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$scratch/archive-graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.boutiquedb.$module" \
        --fallback-default-module-kind "Framework" \
        --warnings-as-errors \
        --enable-inherited-docs \
        --enable-experimental-external-link-support \
        "${dependencies[@]}" \
        --transform-for-static-hosting \
        --hosting-base-path "$base_path" \
        --output-path "$scratch/archives/$module.doccarchive" | sed '/^$/d'
    # Later archives link to this one's pages (``/BoutiqueDB/DatabaseActor``).
    dependencies+=(--dependency "$scratch/archives/$module.doccarchive")
done

archives=()
for module in "${modules[@]}"; do archives+=("$scratch/archives/$module.doccarchive"); done
"$docc" merge "${archives[@]}" --synthesized-landing-page-name BoutiqueDB \
    --synthesized-landing-page-kind Package --output-path "$scratch/site"

echo "Documentation built in $(( $(date +%s) - started )) s: $scratch/site/documentation/boutiquedb/index.html"

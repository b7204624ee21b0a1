#!/usr/bin/env python3
"""Checks that every Swift listing in the DocC articles is code the test suite compiles.

Each ```swift block of `Sources/<Module>/<Module>.docc/<Page>.md` must appear in
`Tests/BoutiqueDocumentationListings/<Page>.swift` or `<Page>+<Part>.swift` (a long page's listings may
be split by section), or, for a listing that is a test, in
`Tests/BoutiqueDocumentationListingsTests/<Page>Tests.swift`, line for line, with the same indentation
relative to its first line: the file may indent the whole block further, as a function body or a type
nests it. Those targets are built by `swift build --build-tests` (the first also by `swift build`, with
warnings as errors), so a listing that stops compiling fails the build, and a listing edited in an article
but not in its file fails this check. Shell, SQL and other listings are not checked.

Usage: Scripts/check-doc-listings.py [repository root]   (exit status 1 names each listing not found)
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
LISTINGS = ROOT / "Tests" / "BoutiqueDocumentationListings"
LISTING_TESTS = ROOT / "Tests" / "BoutiqueDocumentationListingsTests"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)")


def swift_blocks(page: pathlib.Path):
    """Yields (line number, lines) for each ```swift block of a page; fails on an unclosed fence."""
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.groups()
        start = index
        body = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            line = lines[index]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        if index >= len(lines):
            raise SystemExit(f"{page.relative_to(ROOT)}:{start + 1}: the listing is never closed")
        index += 1
        if language == "swift":
            yield start + 1, dedent(body)


def dedent(lines):
    """The lines without the indentation they all share, and without blank lines at either end."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    widths = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    common = min(widths, default=0)
    return [line[common:] if line.strip() else "" for line in lines]


def contains(code, block):
    """Whether `block` appears in `code` as consecutive lines, all indented by one common prefix."""
    first = block[0]
    for start, line in enumerate(code):
        if not line.endswith(first) or start + len(block) > len(code):
            continue
        prefix = line[: len(line) - len(first)]
        if prefix.strip():
            continue
        if all(
            (code[start + k].strip() == "") if not expected else code[start + k] == prefix + expected
            for k, expected in enumerate(block)
        ):
            return True
    return False


def main():
    pages = sorted(ROOT.glob("Sources/*/*.docc/**/*.md"))
    checked = 0
    missing = []
    for page in pages:
        blocks = list(swift_blocks(page))
        if not blocks:
            continue
        source = LISTINGS / (page.stem + ".swift")
        candidates = [source, *sorted(LISTINGS.glob(page.stem + "+*.swift")), LISTING_TESTS / (page.stem + "Tests.swift")]
        sources = [path for path in candidates if path.exists()]
        files = [path.read_text(encoding="utf-8").splitlines() for path in sources]
        for line, block in blocks:
            checked += 1
            if not any(contains(code, block) for code in files):
                missing.append(
                    f"{page.relative_to(ROOT)}:{line}: this listing is not in {source.relative_to(ROOT)} "
                    f"(first line: {block[0].strip()!r})")
    for problem in missing:
        print(f"error: {problem}", file=sys.stderr)
    if missing:
        print(f"{len(missing)} of {checked} Swift listings have no compiled counterpart", file=sys.stderr)
        return 1
    print(f"{checked} Swift listings in {len(pages)} documentation pages are compiled by BoutiqueDocumentationListings")
    return 0


if __name__ == "__main__":
    sys.exit(main())

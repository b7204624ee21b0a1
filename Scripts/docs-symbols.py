#!/usr/bin/env python3
"""Prepares the symbol graphs of each documentation archive and checks them; called by build-docs.sh.

    Scripts/docs-symbols.py GRAPHS OUTPUT [ARCHIVE…]

GRAPHS is the directory `swift build -Xswiftc -emit-symbol-graph` wrote. A module's graph there also
holds the symbols of every module it re-exports (`@_exported import`): BoutiqueDB's has BoutiqueQueries'
and BoutiqueSQLite's, BoutiqueSync's has BoutiqueSyncCore's and all of BoutiqueDB's. Each archive keeps
the symbols declared in its own modules (see ARCHIVES) and links to the others' archives, so that every
symbol is documented once. For each archive this writes OUTPUT/<Archive>/ with the filtered graphs,
then checks, printing every failure and exiting 1 if there is one (only the ARCHIVEs named, when some
are: BoutiqueSyncHTTP is only built where GNU libmicrohttpd is installed):

- that every public symbol declared in the archive's modules has a doc comment of its own, by the rule
  stated in build-docs.sh;
- that the archive's landing page (Sources/<Archive>/<Archive>.docc/<Archive>.md) links every top-level
  symbol (each overload of a name) under `## Topics`, so that none is left to DocC's automatic groups;
- that the Errors article links every case of ``BoutiqueError``.

It prints how many symbols each archive documents.
"""

import collections
import json
import pathlib
import re
import sys

# Archive → the modules whose declarations it documents. BoutiqueQueries is re-exported by BoutiqueDB
# and documented there; BoutiqueSyncCore (the protocol's messages, the clock, the merge rule) by
# BoutiqueSync, which re-exports it for apps (BoutiqueSyncServer links to those pages).
ARCHIVES = {
    "BoutiqueSQLite": {"BoutiqueSQLite"},
    "BoutiqueDB": {"BoutiqueDB", "BoutiqueQueries"},
    "BoutiqueSync": {"BoutiqueSync", "BoutiqueSyncCore"},
    "BoutiqueSyncServer": {"BoutiqueSyncServer"},
    "BoutiqueSyncHTTP": {"BoutiqueSyncHTTP"},
}

# Enums whose every case an article must link: a new error case is documented where users look for it.
CASES_IN_ARTICLES = {"BoutiqueDB": [("BoutiqueError", "Errors.md")]}

ROOT = pathlib.Path(__file__).resolve().parent.parent


def source_module(symbol):
    """The module whose Sources folder declares the symbol, `None` when it has no source location."""
    uri = symbol.get("location", {}).get("uri", "")
    match = re.search(r"/Sources/([^/]+)/", uri)
    return match.group(1) if match else None


def is_synthesized(symbol):
    """A copy the compiler makes of another declaration (a member inherited from a protocol extension
    or a superclass), or a declaration it writes itself (`==` of a synthesized `Equatable`, `init(rawValue:)`
    of an enum): such symbols have the marker in their identifier, or no source location."""
    return "::SYNTHESIZED::" in symbol["identifier"]["precise"] or source_module(symbol) is None


def load_graphs(source, archive, own):
    """The archive's graphs: `{file name: graph}`, one main graph and one per extended module.

    Each module's declarations come from that module's own graph files, never from the copies in a
    module that re-exports it: those are written only when the re-exporting module is rebuilt, so after
    a change to BoutiqueQueries alone, BoutiqueDB's copy of it can be stale. A module's extension graph
    (`BoutiqueQueries@Swift`) older than its main graph is left over from an extension since removed,
    and is skipped."""
    files = []
    for module in sorted(own - {archive}) + [archive]:
        main = source / f"{module}.symbols.json"
        if not main.exists():
            raise SystemExit(f"error: no symbol graph for {module} in {source}")
        for path in [main] + sorted(source.glob(f"{module}@*.symbols.json")):
            if path != main and path.stat().st_mtime < main.stat().st_mtime - 30:
                continue
            extended = path.name[len(module):].removesuffix(".symbols.json")   # "" or "@Swift"
            files.append((module, extended, json.loads(path.read_text())))

    keep = set()
    for module, _, graph in files:
        keep |= {s["identifier"]["precise"] for s in graph["symbols"]
                 if not is_synthesized(s) and source_module(s) == module}
    # Synthesized members of kept types stay: they are part of those types' pages. In an extension
    # graph (`@Swift`: extensions of standard-library types) the synthesized symbols are the standard
    # library's own members and protocol-extension members copied onto Int, String, …: documented
    # where they are declared, left out here.
    parents = collections.defaultdict(set)
    synthesized = {}
    for _, extended, graph in files:
        if extended:
            continue
        for relation in graph["relationships"]:
            if relation["kind"] == "memberOf":
                parents[relation["source"]].add(relation["target"])
        for symbol in graph["symbols"]:
            if is_synthesized(symbol):
                synthesized.setdefault(symbol["identifier"]["precise"], symbol)
    changed = True
    while changed:
        changed = False
        for precise in synthesized:
            if precise not in keep and parents[precise] & keep:
                keep.add(precise)
                changed = True

    graphs = {}
    for _, extended, graph in files:
        name = f"{archive}{extended}.symbols.json"
        merged = graphs.setdefault(name, {
            "metadata": graph["metadata"], "module": dict(graph["module"], name=archive),
            "symbols": [], "relationships": [], "seen": set(), "seenRelations": set()})
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            if precise in keep and precise not in merged["seen"]:
                merged["seen"].add(precise)
                merged["symbols"].append(symbol)
        for relation in graph["relationships"]:
            identity = (relation["source"], relation["target"], relation["kind"])
            if relation["source"] in keep and identity not in merged["seenRelations"]:
                merged["seenRelations"].add(identity)
                merged["relationships"].append(relation)
    for merged in graphs.values():
        del merged["seen"], merged["seenRelations"]
    return {name: graph for name, graph in graphs.items() if graph["symbols"]}


def undocumented(graph, own):
    """The public symbols declared in `own` that need a doc comment and have none (rule: build-docs.sh)."""
    implementations = set()
    for relation in graph["relationships"]:
        if "sourceOrigin" in relation and relation["kind"] in ("memberOf", "defaultImplementationOf"):
            implementations.add(relation["source"])
    missing, documented = [], collections.Counter()
    for symbol in graph["symbols"]:
        precise = symbol["identifier"]["precise"]
        if symbol.get("accessLevel") not in ("public", "open") or is_synthesized(symbol):
            continue
        if symbol["kind"]["identifier"] == "swift.extension":
            continue  # an extension of another module's type declares nothing itself; its members are checked
        module = source_module(symbol)
        if module not in own:
            continue
        comment = symbol.get("docComment")
        has_own = bool(comment) and comment.get("module", module) == module and any(
            line["text"].strip() for line in comment.get("lines", []))
        if has_own:
            documented[module] += 1
        elif precise not in implementations:
            location = symbol["location"]
            path = location["uri"].split("/Sources/", 1)[1]
            missing.append(f"Sources/{path}:{location['position']['line'] + 1}: "
                           f"{'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']}) has no doc comment")
    return documented, missing


def topic_links(landing):
    """The symbol links (``…``) under `## Topics` of a landing page, without module prefix or
    disambiguation suffix, counted."""
    text = landing.read_text(encoding="utf-8")
    topics = text.split("\n## Topics", 1)[1] if "\n## Topics" in text else ""
    links = collections.Counter()
    for link in re.findall(r"``([^`]+)``", topics):
        # A leading slash makes a link absolute (``/BoutiqueSync/SyncStatus``); an operator's own
        # slash (``/=(_:_:)``) is part of its name.
        name = link[1:] if re.match(r"/[A-Za-z_]", link) else link
        # A disambiguation suffix: a symbol kind, a hash, or parameter and return types.
        name = re.sub(r"-(swift\.[a-z.]+|[0-9a-z]{4,6}|\(.*\)(->.*)?|->.*)$", "", name)
        links[name] += 1
    return links


def uncurated(graphs, archive, landing):
    """Top-level symbols the landing page's topics do not link, one entry per overload missing.

    The types of other modules that an archive extends (`Int`, `Date`) are grouped by docc under their
    module's page (`Swift`, `FoundationEssentials`): the landing page links those modules."""
    links = topic_links(landing)
    names = collections.Counter()
    for name, graph in graphs.items():
        if "@" in name:
            names[name.split("@", 1)[1].removesuffix(".symbols.json")] = 1
            continue
        for symbol in graph["symbols"]:
            if len(symbol["pathComponents"]) == 1 and not is_synthesized(symbol):
                names[symbol["pathComponents"][0]] += 1
    problems = []
    for name, count in sorted(names.items()):
        found = links.get(name, 0) + links.get(f"{archive}/{name}", 0)
        if found < count:
            problems.append(f"{landing.relative_to(ROOT)}: ## Topics links {name} {found} time(s), "
                            f"but the module declares {count}")
    return problems


def unexplained_cases(graphs, archive):
    """Cases of the enums of CASES_IN_ARTICLES that their article does not link (``Enum/case``)."""
    problems = []
    for enum, article in CASES_IN_ARTICLES.get(archive, []):
        page = ROOT / "Sources" / archive / f"{archive}.docc" / article
        text = page.read_text(encoding="utf-8")
        for graph in graphs.values():
            for symbol in graph["symbols"]:
                path = symbol["pathComponents"]
                if symbol["kind"]["identifier"] == "swift.enum.case" and len(path) == 2 and path[0] == enum:
                    if f"``{enum}/{path[1]}``" not in text:
                        problems.append(f"{page.relative_to(ROOT)}: does not explain {enum}.{path[1]} (link ``{enum}/{path[1]}``)")
    return problems


def main():
    source, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    chosen = set(sys.argv[3:]) or set(ARCHIVES)
    failures = []
    for archive, own in ARCHIVES.items():
        if archive not in chosen:
            continue
        target = output / archive
        target.mkdir(parents=True, exist_ok=True)
        for stale in target.glob("*.json"):
            stale.unlink()
        graphs = load_graphs(source, archive, own)
        documented = collections.Counter()
        for name, graph in graphs.items():
            (target / name).write_text(json.dumps(graph))
            count, missing = undocumented(graph, own)
            documented.update(count)
            failures += missing
        landing = ROOT / "Sources" / archive / f"{archive}.docc" / f"{archive}.md"
        failures += uncurated(graphs, archive, landing)
        failures += unexplained_cases(graphs, archive)
        detail = ", ".join(f"{module} {documented[module]}" for module in sorted(own)) if len(own) > 1 else ""
        print(f"{archive}: {sum(documented.values())} public symbols documented" + (f" ({detail})" if detail else ""))
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

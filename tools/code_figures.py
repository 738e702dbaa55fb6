"""Figures of the code's shape, for a closing note or a review: `python tools/code_figures.py`.

  files over --lines (500) lines, classes over --class-lines (300) lines
  the largest module of each folder
  import cycles between the modules of each top-level package (a strongly connected part of
  the graph of who imports whom): at module level (what runs on import), and with the imports
  inside functions too (the lazy imports the firmware uses to save heap: a cycle there still
  ties the modules together for a reader)

Generated tables (the display glyphs, firmware/ui/glyphs_*.py) are left out of the line counts.
An import names a module: `from pkg import name` counts as an import of pkg.name when that is a
module, else of pkg. The package's own __init__ that Python runs first is not counted as an edge.
"""
import argparse
import ast
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("rules_min", "protocol", "firmware", "board_configs", "host_tools", "simulator", "pico",
            "tools", "bench")
SKIP_DIRS = {"node_modules", "__pycache__", "migrations", ".venv", "build"}


def generated(rel):
    return os.path.basename(rel).startswith("glyphs_") and rel.startswith("firmware/")


def modules(root, pkgs):
    """{dotted name: repo-relative path} of every .py under the packages."""
    out = {}
    for pkg in pkgs:
        top = os.path.join(root, pkg)
        for d, dirs, files in os.walk(top):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for f in sorted(files):
                if not f.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                name = rel[:-3].replace("/", ".")
                if name.endswith(".__init__"):
                    name = name[:-9]
                out[name] = rel
    return out


def _parse(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return ast.parse(f.read(), rel)


def imports(tree, mods, me, is_pkg):
    """[(module imported, at module level?)] of the modules in mods."""
    out = []

    def base_of(node):
        if not node.level:
            return node.module or ""
        parts = me.split(".")
        if not is_pkg:
            parts = parts[:-1]
        parts = parts[:len(parts) - node.level + 1]
        return ".".join(parts + ([node.module] if node.module else []))

    def visit(node, top):
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    n = a.name
                    while n and n not in mods:
                        n = n.rpartition(".")[0]
                    if n:
                        out.append((n, top))
            elif isinstance(child, ast.ImportFrom):
                base = base_of(child)
                for a in child.names:
                    sub = base + "." + a.name
                    if sub in mods:
                        out.append((sub, top))
                    elif base in mods:
                        out.append((base, top))
            visit(child, inner)

    visit(tree, True)
    return [(n, t) for n, t in out if n != me]


def cycles(graph):
    """Strongly connected parts of more than one module (Tarjan), each sorted."""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(out)


def figures(root=REPO, pkgs=PACKAGES, max_lines=500, max_class=300):
    mods = modules(root, [p for p in pkgs if os.path.isdir(os.path.join(root, p))])
    long_files = []
    long_classes = []
    largest = {}
    top_graph = {}
    all_graph = {}
    for name, rel in sorted(mods.items()):
        tree = _parse(root, rel)
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if not generated(rel):
            if n > max_lines:
                long_files.append((n, rel))
            folder = os.path.dirname(rel)
            if n > largest.get(folder, (0, ""))[0]:
                largest[folder] = (n, rel)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    k = node.end_lineno - node.lineno + 1
                    if k > max_class:
                        long_classes.append((k, "%s:%s" % (rel, node.name)))
        pkg = name.split(".")[0]
        for other, top in imports(tree, mods, name, rel.endswith("__init__.py")):
            if other.split(".")[0] != pkg:
                continue  # cycles inside a package: the layers between packages are checked elsewhere
            all_graph.setdefault(name, set()).add(other)
            if top:
                top_graph.setdefault(name, set()).add(other)
    return {
        "long_files": sorted(long_files, reverse=True),
        "long_classes": sorted(long_classes, reverse=True),
        "largest": largest,
        "cycles_top": cycles(top_graph),
        "cycles_all": cycles(all_graph),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("packages", nargs="*", default=list(PACKAGES))
    ap.add_argument("--lines", type=int, default=500)
    ap.add_argument("--class-lines", type=int, default=300)
    ap.add_argument("--root", default=REPO)
    a = ap.parse_args(argv)
    f = figures(a.root, a.packages, a.lines, a.class_lines)
    print("files over %d lines (%d):" % (a.lines, len(f["long_files"])))
    for n, rel in f["long_files"]:
        print("  %5d  %s" % (n, rel))
    print("classes over %d lines (%d):" % (a.class_lines, len(f["long_classes"])))
    for n, rel in f["long_classes"]:
        print("  %5d  %s" % (n, rel))
    print("largest module of each folder:")
    for folder in sorted(f["largest"]):
        n, rel = f["largest"][folder]
        print("  %5d  %s" % (n, rel))
    for key, what in (("cycles_top", "module-level imports"), ("cycles_all", "imports in functions too")):
        print("import cycles, %s (%d):" % (what, len(f[key])))
        for part in f[key]:
            print("  " + " <-> ".join(part))
    return 0


if __name__ == "__main__":
    sys.exit(main())

# Test runner for MicroPython, which has no pytest: runs the plain `test_*` functions of the
# given modules (default: every tests/core/test_*.py) and prints "N passed, M failed".
#   micropython -X heapsize=256K tests/mp_run.py [tests/core/test_x.py ...]
# Only MicroPython built-ins here: no os.path, no traceback, no importlib.
import gc
import os
import sys


def dirname(path):
    i = path.rfind("/")
    if i < 0:
        return "."
    return path[:i] if i > 0 else "/"


def basename(path):
    return path[path.rfind("/") + 1 :]


def repo_root():
    tests_dir = dirname(__file__)
    return ".." if tests_dir == "." else dirname(tests_dir)


def discover(root):
    core = root + "/tests/core"
    names = [n for n in os.listdir(core) if n.startswith("test_") and n.endswith(".py")]
    names.sort()
    return [core + "/" + n for n in names]


def load(path):
    # Like pytest's default import mode: the module's folder goes on sys.path and the module is
    # imported by its bare name, so the same file imports the same way under both runners.
    folder = dirname(path)
    if folder not in sys.path:
        sys.path.append(folder)
    return __import__(basename(path)[:-3])


def run_module(path):
    passed = failed = 0
    try:
        mod = load(path)
    except Exception as exc:
        print("FAIL import", path)
        sys.print_exception(exc)
        return 0, 1
    names = [n for n in dir(mod) if n.startswith("test_")]
    names.sort()  # module dicts have no source order in MicroPython; sorted is at least stable
    for name in names:
        fn = getattr(mod, name)
        if not callable(fn) or isinstance(fn, type):
            continue
        try:
            fn()
            passed += 1
        except Exception as exc:
            failed += 1
            print("FAIL %s.%s" % (mod.__name__, name))
            sys.print_exception(exc)
        gc.collect()  # each test starts with the heap the previous one left free
    # the test module's code goes once it has run: the suite's modules need not all fit at once
    sys.modules.pop(mod.__name__, None)
    mod = fn = None
    gc.collect()
    return passed, failed


def main(argv):
    root = repo_root()
    sys.path.insert(0, root)
    paths = argv[1:] or discover(root)
    passed = failed = 0
    for path in paths:
        p, f = run_module(path)
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    if failed or not passed:
        sys.exit(1)


main(sys.argv)

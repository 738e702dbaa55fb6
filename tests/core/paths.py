# Where the test data lives (testdata/ of the repository, which stands on its own),
# found from this file so it works under pytest and MicroPython.


def _up(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


def repo_root():
    here = __file__
    if not here.startswith("/"):
        here = "./" + here
    return _up(_up(_up(here)))


def data(name):
    return repo_root() + "/testdata/" + name

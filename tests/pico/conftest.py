# The emulated Pico's tests need the Pico firmware files (stock MicroPython v1.28.0 for RPI_PICO
# and the RP2040 boot ROM, in $PICO_FIRMWARE_DIR or ../shared/pico). Without them, and only then,
# every test here is skipped with that reason; a missing pico/node_modules is an error
# (`make pico-deps`), not a skip.
import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from pico.run import missing_firmware, node_modules_missing  # noqa: E402


def pytest_collection_modifyitems(config, items):
    why = missing_firmware()
    if why is None:
        return
    mark = pytest.mark.skip(reason="emulated Pico tests did not run: " + why)
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(mark)


@pytest.fixture(scope="session")
def node_ready():
    why = node_modules_missing()
    if why:
        pytest.fail(why)

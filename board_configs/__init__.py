# One module per board: pins, buses, display, reader and keypad of one build of the box.
# firmware/board/ turns a config into hardware objects; `make firmware BOARD=name` builds for it.
# Each config is plain data (MicroPython-safe): the build installs the chosen one on the device as
# the top-level module `board_config`.

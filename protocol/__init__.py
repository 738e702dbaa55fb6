# The wire module of the box's host link and its record schema, shared by the box (MicroPython),
# the sync and tag tools and the tournament server: frames.py, sign.py (link), record.py, config.py (app).

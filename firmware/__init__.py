# The box's application, what runs on the board (and unchanged in the simulator):
#   main.py        the device loop: boot() a board's hardware, journal, App and link; serve()
#   app.py         App: keys and tag taps to the flow of the current state, its screens
#   states.py      every state, the flow that draws it, and the step data the flows share
#   flows/         one module per step of the table (setup, table, win, tiles, kong, ...)
#   scorebook.py   the hand in progress: preview, confirm, its record and commit; the session's
#                  records; replay.py the session again from the journal after a reboot
#   box_settings.py, session_time.py   what the organizer set, kept on flash: the PIN and
#                  language; the running session's extended time
#   entry.py       the tiles of a hand as they are tapped
#   session.py     seats, dealer, wind, totals (session_three.py, survival.py: other tables)
#   journal/       the records on flash that survive a power cut
#   link/          the host link on the USB serial port
#   ui/            texts, layout, rendering, fonts
#   board/         hardware from a board config; drivers/ the chips' drivers
#   tags/          the tiles' NFC tags
#   compat.py      MicroPython's own names, with stand-ins on CPython
#   score_stdio.py, settle_stdio.py   the rules core's line protocols on the unix port

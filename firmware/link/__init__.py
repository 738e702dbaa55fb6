# The box's end of the host link (the wire format is protocol/frames.py's):
#   engine.py      frames in and out, resends, authentication, the link's state (Link)
#   requests.py    what each request does (HELLO, RECORDS, ACK, CONFIG, CLOCK, ...)
#   store.py       the link's files on flash: the device key, the set-aside list
#   ports.py       the board's byte-stream port (USB CDC: sys.stdin / sys.stdout)
#   host_ports.py  the desktop's ports: a pty or pipe fd, memory (simulator, tests; never on a board)
#   stdio.py       a box that is only its link, on the MicroPython unix port's stdin / stdout

# The hand journal on flash: append-only records that survive power loss.
#   journal.py    Journal: appending in two halves (prepare, commit), reading, the host's ack,
#                 space and pruning
#   recovery.py   the check of the files at boot: torn tails cut, damage reported
#   format.py     the files and the record format, the CRC, the errors
from firmware.journal.journal import Journal, JournalCorrupt, JournalError, JournalFull  # noqa: F401

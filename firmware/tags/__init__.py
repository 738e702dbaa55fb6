# The tiles' NFC tags:
#   tile_tag.py   what a tag says: the 8-byte record (set, tile, copy, CRC), and the UID
#                 registry of tags that cannot be written
#   mode.py       the box as a tag programmer and checker (the host's TAGS requests, or *0# on
#                 the idle screen)

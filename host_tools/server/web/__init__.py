"""The organizer's and referees' pages (English and Chinese), the public pages (standings for
the projector, tables, players, awards, seating), and printable table sheets."""

"""The boxes at the tables: devices and their keys, the signed records they upload (stored
verbatim, never changed), the hands derived from them or entered by a referee, corrections,
and the referees' rulings on quarantined records."""

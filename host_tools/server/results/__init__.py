"""Results from what is stored: ``snapshot`` reads one consistent picture of a tournament from
the database (plain data, no payload decoding), ``integrity`` decides which records count and
which wait in quarantine, ``compute`` scores the counted data through host_tools.tournament,
``cache`` serves the result per results version and computes it once however many ask,
``exports`` writes the CSVs, ``progress`` says which sessions are complete (provisional awards),
``times`` checks the hands against the time limit."""

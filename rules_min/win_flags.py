# Win flags no hand can have together, and flags of another rule set, refused whatever the tiles
# (the checks that depend on the tiles are mcr.check_flags). Used by the score protocol
# (request.py) and settle.py; the table of flags, for screens and host tools, is keyed.FLAGS.

def check(rules, self_drawn, kong, last_tile, mixed=False, flower=False, kong_discard=False, misnamed=False):
    """Error message for flags no hand can have together, or for a flag of another rule set;
    None when they can go together."""
    if last_tile and kong and not self_drawn:
        # a kong draws its replacement from the wall (seed 000 §一.2.6), so the tile robbed from
        # an added kong is never the last one (decided in docs/rules.md)
        return "海底捞月 with 抢杠和: a robbed kong tile is never the last tile"
    if flower and not (kong and self_drawn):
        return "replacement_flower goes with a win on a kong's replacement (kong, self-drawn)"
    if kong_discard and (self_drawn or kong):
        return "杠上炮 is a win on a discard, not on a kong"
    if misnamed and self_drawn:
        return "misnamed goes with a win on a discard"
    if mixed or flower or misnamed:
        if rules != "mcr":
            return ("win_tile_mixed" if mixed else "replacement_flower" if flower else "misnamed") + \
                " is a Chinese Official rule, not one of " + rules
    if kong_discard and rules != "sichuan":
        return "kong_discard (杠上炮) is a Sichuan rule, not one of " + rules
    return None

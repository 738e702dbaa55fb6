# Hand notation of docs/rules.md: what parses, and the clear refusal of everything else.
from rules_min.notation import parse, CHOW, PUNG, KONG
from rules_min.tiles import parse_tile


def _code(s):
    try:
        parse(s)
    except ValueError as e:
        return e.args[0]
    return None


def test_rules_example_parses_to_melds_concealed_and_win():
    melds, counts, win, flowers = parse("[345m3]258m1488s369p7s")
    assert bytes(melds) == bytes((CHOW, parse_tile("3m"), 3))
    assert win == parse_tile("7s")
    assert sum(counts) == 11 and counts[parse_tile("8s")] == 2 and flowers == 0


def test_comma_form_equals_digit_form():
    a = parse("[EEE,2]123m456s789p11p")
    b = parse("[EEE2]123m456s789p11p")
    assert bytes(a[0]) == bytes(b[0]) == bytes((PUNG, 27, 2))


def test_kong_forms():
    assert bytes(parse("[5555p]123m456s789p1p1p")[0]) == bytes((KONG, parse_tile("5p"), 0))
    assert bytes(parse("[5555p1]123m456s789p1p1p")[0]) == bytes((KONG, parse_tile("5p"), 1))
    assert bytes(parse("[5555p,6]123m456s789p1p1p")[0]) == bytes((KONG, parse_tile("5p"), 6))


def test_flower_letters_are_counted():
    assert parse("ace123m456s789p11pEEE")[3] == 3


def test_digits_share_the_following_suit():
    assert parse("1m2m3m456s789p11pEEE")[1] == parse("123m456s789p11pEEE")[1]


def test_refusals_name_the_problem():
    assert _code("123m456s789p11pEEX") == "bad_char"
    assert _code("123m456s789p11pEE9") == "bad_char"
    assert _code("[ESW]123m456s789p11p") == "bad_meld"       # honour chow
    assert _code("[135m]123m456s789p11p") == "bad_meld"      # not consecutive
    assert _code("[789m,4]123m456s789p11p") == "bad_meld"    # claimed tile 4 of a chow
    assert _code("[EEE,4]123m456s789p11p") == "bad_meld"     # supplier 4 of a pung
    assert _code("[EEEE4]123m456s789p11p") == "bad_meld"     # kong supplier 4
    assert _code("[12m]123m456s789p11p") == "bad_meld"
    assert _code("[123m") == "bad_meld"
    assert _code("123m[456s]789p11pEEE") == "bad_meld"       # meld after concealed tiles
    assert _code("123m456s789p11pEE") == "tile_count"        # 13 tiles
    assert _code("123m456s789p11pEEEE") == "tile_count"      # 15 tiles
    assert _code("[1111m]11m234m456s789p") == "fifth_tile"
    assert _code("11111m2m456s789pEE") == "fifth_tile"
    assert _code("aa123m456s789p11pEEE") == "bad_flower"
    assert _code(123) == "bad_hand"
    assert _code("1" * 200) == "bad_hand"


def test_fifth_copy_message_names_the_tile():
    try:
        parse("[EEE1]EE123m456s789p")
    except ValueError as e:
        assert e.args[0] == "fifth_tile" and "E" in e.args[1]
    else:
        assert False, "five East tiles were accepted"

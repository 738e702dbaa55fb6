# A win as the scorers take it (mcr.score, sichuan.score, guangdong.score, mcr.check_flags): the
# parsed hand and how it was won, one object in, as ChineseOfficialMahjongHelper's
# calculate_param_t. The scorers only read it (the counts are put back as they were).
#
#   melds, counts, tile, letters = notation.parse(text)
#   p = Win(melds, counts, tile, self_drawn=True, flowers=letters)
#   total = mcr.score(p, ft)        # ft: the caller's bytearray(mcr_table.NUM_FANS)
#
# A caller that scores often keeps one Win and refills it, as the score protocol and settle do:
#   p = _P.reset(melds, counts, tile)   # the hand, every flag cleared
#   p.self_drawn = True
# Making a Win costs the Pico ~0.27 ms (MicroPython grows its attribute table six times as
# the fields go in, an allocation each), a reset ~0.05 ms, a field ~2 us: on the score
# protocol's Sichuan hands that is the difference between meeting the 10 ms target or not.


class Win:
    # No instance dict on CPython (MicroPython ignores __slots__; its objects have no spare
    # dict anyway): a misspelt flag is an AttributeError, not a flag silently left off.
    __slots__ = ("melds", "counts", "tile", "self_drawn", "last_of_kind", "last_tile", "kong", "flower",
                 "mixed", "seat_wind", "prevalent_wind", "flowers")

    def __init__(self, melds, counts, tile, self_drawn=False, last_of_kind=False, last_tile=False, kong=False,
                 flower=False, mixed=False, seat_wind=27, prevalent_wind=27, flowers=0):
        self.melds = melds            # notation.parse's: kind, tile, source per claimed set
        self.counts = counts          # the concealed tiles by tile code, the winning tile included
        self.tile = tile              # the winning tile
        self.self_drawn = self_drawn
        self.last_of_kind = last_of_kind  # 和绝张 declared
        self.last_tile = last_tile    # 海底捞月 / 妙手回春
        self.kong = kong              # out on a kong's replacement (self-drawn) or robbing a kong
        self.flower = flower          # that replacement was a flower (MCR: no 杠上开花, seed 000 §二.14)
        self.mixed = mixed            # MCR: the winning tile went into the hand before it was shown
        self.seat_wind = seat_wind    # tile codes 27-30 (E S W N)
        self.prevalent_wind = prevalent_wind
        self.flowers = flowers        # flower tiles (MCR: one point each, outside the scorer's total)

    def reset(self, melds, counts, tile):
        """This Win again for another hand, its flags cleared; returns it."""
        self.melds = melds
        self.counts = counts
        self.tile = tile
        self.self_drawn = self.last_of_kind = self.last_tile = self.kong = self.flower = self.mixed = False
        self.seat_wind = self.prevalent_wind = 27
        self.flowers = 0
        return self

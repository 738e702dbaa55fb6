# Screens per second of firmware/ui/render.py into a frame buffer, on MicroPython or CPython:
#
#   .venv/bin/micropython -X heapsize=1M bench/mp_render.py      # real framebuf (unix port)
#   .venv/bin/python bench/mp_render.py                          # simulator/framebuf_compat.py
#
# For each target: 128x64 MONO_VLSB (SSD1306), 320x240 RGB565 in one buffer, and 320x240 drawn
# as the ST7789 driver does (15 bands of 16 rows, each band a full redraw clipped to it); glyphs
# by blit and by hline runs. Also the bytes allocated per screen (MicroPython only).
import sys
import time

_i = __file__.rfind("/")
sys.path.append((__file__[:_i] if _i >= 0 else ".") + "/..")  # the repository root

MP = sys.implementation.name == "micropython"
if MP:
    import framebuf
    import gc

    def now():
        return time.ticks_us()

    def since(t):
        return time.ticks_diff(time.ticks_us(), t) / 1e6

else:
    from simulator import framebuf_compat as framebuf

    gc = None

    def now():
        return time.perf_counter()

    def since(t):
        return time.perf_counter() - t


from firmware.ui.render import Renderer  # noqa: E402

FANS = ("自摸 玩家2 64番", ["清一色\t24", "一色三同顺\t24", "清龙\t16", "三色三步高\t6", "门前清\t2", "自摸\t1", "花牌\t2"], "#确认 *返回")
PAY = ("结算 第5盘 东风圈", ["东 玩家1 庄\t+82", "南 玩家2 点炮\t-34", "西 玩家3\t-24", "北 玩家4\t-24"], "#确认 *返回 A撤销")
EN = ("Hand 5: self-drawn", ["Full Flush\t24", "Pure Triple Chow\t24", "Pure Straight\t16", "Fully Concealed Hand\t4"], "#=OK *=Back")
MODELS = (FANS, PAY, EN)


def run(label, r, fb, band_rows, seconds):
    def one(m):
        if band_rows:
            y = 0
            while y < r.height:
                fb.fill(0)
                r.draw(fb, m, 0, y, band_rows)
                y += band_rows
        else:
            r.draw(fb, m)

    for m in MODELS:
        one(m)  # warm up: fonts imported, buffers made
    alloc = ""
    if gc:
        gc.collect()
        a = gc.mem_alloc()
        one(FANS)
        alloc = "  %5d B/screen" % (gc.mem_alloc() - a)
    n = 0
    t = now()
    while True:
        one(MODELS[n % 3])
        n += 1
        if n % 3 == 0 and since(t) >= seconds:
            break
    dt = since(t)
    print("%-34s %8.1f screens/s  %7.3f ms/screen%s" % (label, n / dt, 1000 * dt / n, alloc))


def main(seconds=1.0):
    print(sys.implementation.name, sys.version.split()[0])
    for blit in (True, False):
        how = "blit" if blit else "runs"
        r = Renderer(128, 64, blit=blit)
        fb = framebuf.FrameBuffer(bytearray(128 * 64 // 8), 128, 64, framebuf.MONO_VLSB)
        run("128x64 MONO_VLSB, " + how, r, fb, 0, seconds)
        r = Renderer(320, 240, color=True, blit=blit)
        fb = framebuf.FrameBuffer(bytearray(320 * 240 * 2), 320, 240, framebuf.RGB565)
        run("320x240 RGB565 frame, " + how, r, fb, 0, seconds)
        fb = framebuf.FrameBuffer(bytearray(320 * 16 * 2), 320, 16, framebuf.RGB565)
        run("320x240 RGB565 16-row bands, " + how, r, fb, 16, seconds)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)

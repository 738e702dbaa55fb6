"""Build the device's glyph subsets: firmware/ui/glyphs_12.py (128x64 SSD1306) and
firmware/ui/glyphs_16.py (320x240 ST7789).

    python tools/glyphs.py            # write both modules
    python tools/glyphs.py --check    # exit 1 if a committed module differs from a rebuild
    python tools/glyphs.py --show 清一色 --size 12   # print glyphs as text, for a look

Source font: WenQuanYi Bitmap Song, the PCF strikes of Debian's `xfonts-wqy` package
(/usr/share/fonts/X11/misc/wenquanyi_9pt.pcf is the 12 px strike, wenquanyi_12pt.pcf the 16 px
one). The characters: ASCII 32..126, then every non-ASCII character of
  - the Chinese fan names of testdata/mcr_fans.tsv,
  - the Sichuan, Guangdong and UI word lists below,
  - the string constants (docstrings left out) of rules_min/*.py and firmware/**/*.py: fan names,
    tile names and every screen text the firmware can show,
so a text added to the firmware needs a rebuild, and tests/render checks that none is missing.

A generated module holds bytes constants only (no dict, nothing built at import):
  HEIGHT, ASCENT  cell height in rows and baseline row (glyph cells are HEIGHT rows, top = text y)
  COUNT           number of glyphs; 0..94 are ASCII 32..126 in order
  CODES           the non-ASCII code points, 2 bytes big-endian each, ascending; the glyph of
                  CODES[i] is number 95 + i (binary search at run time)
  WIDTHS          1 byte per glyph: advance width = bitmap width in pixels (1..16)
  OFFSETS         2 bytes big-endian per glyph: where its bitmap starts in BITMAPS
  BITMAPS         each glyph as framebuf MONO_HLSB rows: HEIGHT rows of (width + 7) // 8 bytes,
                  MSB = leftmost pixel, so it copies straight into a FrameBuffer of that stride
The output is a pure function of the font file and the character set: rebuilding gives the same
bytes, which tests/render/test_glyphs.py checks against the committed modules.
"""
import argparse
import ast
import gzip
import os
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FANS_TSV = REPO / "testdata" / "mcr_fans.tsv"
OUT = REPO / "firmware" / "ui"  # where the generated modules go
FONT_DIR = Path("/usr/share/fonts/X11/misc")
APT_PACKAGE = "xfonts-wqy"

# size: (PCF file, cell ascent, cell descent, output module). The cell is what a text line takes;
# ink outside it is clipped. 12 px: CJK ink is rows 0..10 of the 12-row cell, ASCII descenders
# fit; only '/' loses its top pixel. 16 px: CJK ink rows 0..15, and 2 more rows so that the
# descenders of g j p q y ( ) [ ] { } | keep all their pixels.
FONTS = {
    12: ("wenquanyi_9pt.pcf", 10, 2, "glyphs_12.py"),
    16: ("wenquanyi_12pt.pcf", 14, 4, "glyphs_16.py"),
}

SICHUAN = "平胡 对对胡 清一色 七对 龙七对 清七对 自摸 杠上开花 抢杠胡 海底捞月 根 血战到底 呼叫转移"
GUANGDONG = "鸡和 平和 混一色 碰碰和 七对 清一色 幺九 字一色 十三幺 推倒胡 买马 爆胡"
UI = (
    "东 南 西 北 风 圈 庄 胡 和 自摸 点炮 杠 明杠 暗杠 加杠 罚 警告 错和 诈和 确认 返回 撤销 番 分 局 盘 桌 "
    "玩家 时间 剩余 结束 流局 查叫 花猪 买马 定缺 万 条 筒 中 发 白 花 "
    # words the screens are likely to need beyond the list above
    "第 一 二 三 四 五 六 七 八 九 十 零 百 千 总 积 得 失 输 赢 付 收 支 结算 合计 底分 倍 封顶 "
    "规则 国标 川麻 广东 四川 设置 语言 中文 英文 亮度 声音 菜单 帮助 保存 删除 取消 是 否 "
    "开始 暂停 继续 下一 上一 页 共 人 次 轮 座位 换位 东风 南风 西风 北风 连庄 荒庄 闲家 庄家 "
    "牌 吃 碰 听 和牌 胡牌 补花 请 拍 读 卡 成功 失败 错误 电量 连接 断开 同步 等待 裁判 比赛 "
    "选择 更正 已 无 有 满 空 到 迟 分钟 秒 "
)
UI_WORDS = " ".join((SICHUAN, GUANGDONG, UI))

# Character set: ASCII first, then CJK. Punctuation that is not ASCII is taken when a source uses
# it; the glyph must then exist in the font (the build fails otherwise).
ASCII = "".join(chr(c) for c in range(32, 127))
MAX_WIDTH = 16


# ---------------------------------------------------------------- PCF reader
# The X11 Portable Compiled Format, as written by bdftopcf: a table of contents, then tables that
# each start with their own format word (byte order, bit order, row padding).
PCF_PROPERTIES = 1 << 0
PCF_ACCELERATORS = 1 << 1
PCF_METRICS = 1 << 2
PCF_BITMAPS = 1 << 3
PCF_BDF_ENCODINGS = 1 << 5
PCF_BDF_ACCELERATORS = 1 << 8
PCF_COMPRESSED_METRICS = 0x100
PCF_BYTE_MASK = 1 << 2  # set: most significant byte first
PCF_BIT_MASK = 1 << 3  # set: most significant bit first


class PcfFont:
    def __init__(self, data):
        if data[:4] != b"\x01fcp":
            raise ValueError("not a PCF font")
        (n,) = struct.unpack_from("<I", data, 4)
        self.toc = {}
        for i in range(n):
            kind, fmt, size, off = struct.unpack_from("<IIII", data, 8 + 16 * i)
            self.toc[kind] = off
        self.data = data
        self.props = self._properties()
        self.metrics = self._metrics()
        self._bitmaps()
        self.encoding = self._encodings()

    def _table(self, kind):
        off = self.toc.get(kind)
        if off is None:
            raise ValueError("PCF table %d missing" % kind)
        (fmt,) = struct.unpack_from("<I", self.data, off)
        return off + 4, fmt, (">" if fmt & PCF_BYTE_MASK else "<")

    def _properties(self):
        p, fmt, e = self._table(PCF_PROPERTIES)
        d = self.data
        (n,) = struct.unpack_from(e + "i", d, p)
        p += 4
        raw = [struct.unpack_from(e + "iBi", d, p + 9 * i) for i in range(n)]
        p += 9 * n
        if n & 3:
            p += 4 - (n & 3)
        (size,) = struct.unpack_from(e + "i", d, p)
        strings = d[p + 4 : p + 4 + size]

        def s(o):
            return strings[o : strings.index(b"\0", o)].decode("latin-1")

        return {s(name): (s(v) if is_str else v) for name, is_str, v in raw}

    def _metrics(self):
        p, fmt, e = self._table(PCF_METRICS)
        d = self.data
        out = []
        if fmt & PCF_COMPRESSED_METRICS:
            (n,) = struct.unpack_from(e + "H", d, p)
            p += 2
            for i in range(n):
                lsb, rsb, w, asc, desc = (b - 0x80 for b in d[p + 5 * i : p + 5 * i + 5])
                out.append((lsb, rsb, w, asc, desc))
        else:
            (n,) = struct.unpack_from(e + "I", d, p)
            p += 4
            for i in range(n):
                out.append(struct.unpack_from(e + "hhhhh", d, p + 12 * i))
        return out

    def _bitmaps(self):
        p, fmt, e = self._table(PCF_BITMAPS)
        d = self.data
        (n,) = struct.unpack_from(e + "I", d, p)
        p += 4
        self.offsets = struct.unpack_from(e + "%dI" % n, d, p)
        p += 4 * n + 16  # and the four bitmap sizes, one per padding
        self.bits = d[p:]
        self.row_pad = 1 << (fmt & 3)
        self.scan_unit = 1 << ((fmt >> 4) & 3)
        self.msb_bit = bool(fmt & PCF_BIT_MASK)
        self.msb_byte = bool(fmt & PCF_BYTE_MASK)

    def _encodings(self):
        p, fmt, e = self._table(PCF_BDF_ENCODINGS)
        min2, max2, min1, max1, _default = struct.unpack_from(e + "5h", self.data, p)
        cols = max2 - min2 + 1
        count = cols * (max1 - min1 + 1)
        idx = struct.unpack_from(e + "%dH" % count, self.data, p + 10)
        enc = {}
        for i, g in enumerate(idx):
            if g != 0xFFFF:
                enc[((min1 + i // cols) << 8) | (min2 + i % cols)] = g
        return enc

    def _byte(self, row_start, i):
        # byte i of a row, undoing the scan unit's byte swap when bytes are LSB first
        if self.scan_unit > 1 and not self.msb_byte:
            unit = i - i % self.scan_unit
            i = unit + self.scan_unit - 1 - i % self.scan_unit
        b = self.bits[row_start + i]
        if not self.msb_bit:
            b = int("{:08b}".format(b)[::-1], 2)
        return b

    def glyph(self, cp):
        """(advance, left bearing, ascent, rows): rows are lists of 0/1 over the ink box."""
        g = self.encoding.get(cp)
        if g is None:
            return None
        lsb, rsb, width, asc, desc = self.metrics[g]
        w = rsb - lsb
        pad8 = self.row_pad * 8
        stride = (w + pad8 - 1) // pad8 * self.row_pad
        start = self.offsets[g]
        rows = []
        for y in range(asc + desc):
            rs = start + y * stride
            rows.append([(self._byte(rs, x >> 3) >> (7 - (x & 7))) & 1 for x in range(w)])
        return width, lsb, asc, rows


def load_font(path):
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return PcfFont(data)


class MissingInput(Exception):
    pass


def font_path(size, font_dir=FONT_DIR):
    name = FONTS[size][0]
    for cand in (font_dir / name, font_dir / (name + ".gz")):
        if cand.exists():
            return cand
    raise MissingInput(
        "font %s not found in %s: install the Debian package %s (apt-get install %s)"
        % (name, font_dir, APT_PACKAGE, APT_PACKAGE)
    )


# ---------------------------------------------------------------- character set
def _docstring_nodes(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def literal_chars(path):
    """Non-ASCII characters of a Python file's string constants, docstrings left out."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), str(path))
    skip = _docstring_nodes(tree)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            out.update(c for c in node.value if ord(c) > 126)
    return out


def source_files(repo=REPO):
    files = sorted((repo / "rules_min").glob("*.py"))
    for p in sorted((repo / "firmware").rglob("*.py")):
        if not p.name.startswith("glyphs_"):
            files.append(p)
    return files


def tsv_chars(path=FANS_TSV):
    if not Path(path).exists():
        raise MissingInput("fan table %s not found" % path)
    out = set()
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    col = lines[0].split("\t").index("name")
    for line in lines[1:]:
        if line.strip():
            out.update(c for c in line.split("\t")[col] if ord(c) > 126)
    return out


def wanted_chars(repo=REPO, fans_tsv=FANS_TSV):
    """Sorted non-ASCII characters of the subset (ASCII 32..126 always comes first)."""
    chars = set(c for c in UI_WORDS if ord(c) > 126 and not c.isspace())
    chars |= tsv_chars(fans_tsv)
    for p in source_files(repo):
        chars |= literal_chars(p)
    return sorted(c for c in chars if not c.isspace())


# ---------------------------------------------------------------- building a module
def cell_bitmap(font, cp, ascent, descent):
    """(advance, HLSB bytes) of one glyph in a cell of ascent + descent rows."""
    g = font.glyph(cp)
    if g is None:
        return None
    width, lsb, asc, rows = g
    ink_w = len(rows[0]) if rows else 0
    # ink left of the origin (J, j) or right of the advance widens the cell, not clipped
    shift = -lsb if lsb < 0 else 0
    adv = max(width + shift, lsb + shift + ink_w)
    if adv > MAX_WIDTH:
        raise ValueError("U+%04X is %d px wide, more than %d" % (cp, adv, MAX_WIDTH))
    height = ascent + descent
    stride = (adv + 7) >> 3
    out = bytearray(height * stride)
    top = ascent - asc  # cell row of the ink's first row
    for ry, row in enumerate(rows):
        y = top + ry
        if not 0 <= y < height:
            continue  # clipped
        for rx, bit in enumerate(row):
            if bit:
                x = lsb + shift + rx
                out[y * stride + (x >> 3)] |= 0x80 >> (x & 7)
    return adv, bytes(out)


def build(size, chars, font=None):
    """Text of the module for one size, and a summary dict."""
    pcf_name, ascent, descent, _ = FONTS[size]
    if font is None:
        font = load_font(font_path(size))
    codes = [ord(c) for c in ASCII] + [ord(c) for c in chars]
    missing = [chr(cp) for cp in codes if font.encoding.get(cp) is None]
    if missing:
        raise MissingInput("%s lacks glyphs for: %s" % (pcf_name, " ".join(missing)))
    for cp in codes[95:]:
        if cp < 127 or cp > 0xFFFF:
            raise ValueError("U+%04X: only non-ASCII BMP characters go in CODES" % cp)
    widths = bytearray()
    offsets = bytearray()
    blob = bytearray()
    for cp in codes:
        adv, bits = cell_bitmap(font, cp, ascent, descent)
        widths.append(adv)
        offsets += struct.pack(">H", len(blob))
        blob += bits
    if len(blob) > 0xFFFF:
        raise ValueError("bitmap blob over 64 KiB")
    code_bytes = b"".join(struct.pack(">H", cp) for cp in codes[95:])
    height = ascent + descent
    text = [
        "# Generated by tools/glyphs.py: do not edit; rebuild with `python tools/glyphs.py`.",
        "# %d px glyphs of WenQuanYi Bitmap Song (%s, Debian package %s), GPL-2.0 with font"
        % (size, pcf_name, APT_PACKAGE),
        "# embedding exception. %d glyphs: ASCII 32..126 and %d others." % (len(codes), len(codes) - 95),
        "# Layout: see tools/glyphs.py. Bitmaps: MONO_HLSB, HEIGHT rows of (width + 7) // 8 bytes.",
        "SIZE = %d" % size,
        "HEIGHT = %d" % height,
        "ASCENT = %d" % ascent,
        "COUNT = %d" % len(codes),
        "CODES = " + _bytes_literal(code_bytes),
        "WIDTHS = " + _bytes_literal(widths),
        "OFFSETS = " + _bytes_literal(offsets),
        "BITMAPS = " + _bytes_literal(blob),
    ]
    text = "\n".join(text) + "\n"
    summary = {
        "size": size,
        "glyphs": len(codes),
        "non_ascii": len(codes) - 95,
        "height": height,
        "codes_bytes": len(code_bytes),
        "widths_bytes": len(widths),
        "offsets_bytes": len(offsets),
        "bitmap_bytes": len(blob),
    }
    return text, summary


def _bytes_literal(b, width=96):
    # one literal per line inside parentheses: the compiler joins them into one constant
    parts = []
    cur = ""
    for byte in bytes(b):
        if 32 <= byte < 127 and byte not in (0x22, 0x5C):
            piece = chr(byte)
        else:
            piece = "\\x%02x" % byte
        if len(cur) + len(piece) > width:
            parts.append(cur)
            cur = ""
        cur += piece
    parts.append(cur)
    if len(parts) == 1:
        return 'b"%s"' % parts[0]
    return "(\n" + "".join('    b"%s"\n' % p for p in parts) + ")"


def build_all(repo=REPO, fans_tsv=FANS_TSV, sizes=(12, 16)):
    chars = wanted_chars(repo, fans_tsv)
    return {size: build(size, chars) for size in sizes}


def show(size, text):
    font = load_font(font_path(size))
    _, ascent, descent, _ = FONTS[size]
    for ch in text:
        adv, bits = cell_bitmap(font, ord(ch), ascent, descent)
        stride = (adv + 7) >> 3
        print("%s U+%04X width %d" % (ch, ord(ch), adv))
        for y in range(ascent + descent):
            print("".join("#" if bits[y * stride + (x >> 3)] & (0x80 >> (x & 7)) else "." for x in range(adv)))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/glyphs.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed modules, write nothing")
    ap.add_argument("--out", default=str(OUT), help="output folder (default: firmware/ui/)")
    ap.add_argument("--fans", default=str(FANS_TSV), help="mcr_fans.tsv (default: testdata/ of the repository)")
    ap.add_argument("--show", metavar="TEXT", help="print the glyphs of TEXT and exit")
    ap.add_argument("--size", type=int, choices=sorted(FONTS), default=12)
    args = ap.parse_args(argv)
    try:
        if args.show:
            show(args.size, args.show)
            return 0
        built = build_all(REPO, Path(args.fans))
    except MissingInput as e:
        print("glyphs: %s" % e, file=sys.stderr)
        return 2
    status = 0
    for size, (text, summary) in built.items():
        path = Path(args.out) / FONTS[size][3]
        line = "%s: %d glyphs (%d non-ASCII), height %d, bitmaps %d B, codes %d B, widths %d B, offsets %d B" % (
            path.name, summary["glyphs"], summary["non_ascii"], summary["height"], summary["bitmap_bytes"],
            summary["codes_bytes"], summary["widths_bytes"], summary["offsets_bytes"])
        if args.check:
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                print("STALE " + line, file=sys.stderr)
                status = 1
            else:
                print("ok " + line)
        else:
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
            print("wrote " + line)
    return status


if __name__ == "__main__":
    sys.exit(main())

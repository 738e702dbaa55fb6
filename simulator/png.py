"""Frame buffers to PNG files with zlib and struct only (no Pillow).

    from simulator import png
    png.write_framebuf("screen.png", fb_bytes, 128, 64, png.MONO_VLSB, scale=4)
    png.write_framebuf("screen.png", fb_bytes, 320, 240, png.RGB565, scale=2)

Mono pixels that are set are drawn in `on` (default: a white-blue, like an SSD1306), clear ones
in `off`; RGB565 pixels are stored little-endian, byte-swapped when swap=True (the ST7789 driver's
color565 values). scale repeats every pixel scale x scale times; grid=True leaves a dark line
between the enlarged pixels, which makes single pixels easy to count.
"""
import struct
import zlib

MONO_VLSB = 0
RGB565 = 1
MONO_HLSB = 3

OLED_ON = (200, 230, 255)
OLED_OFF = (0, 0, 0)


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode(rows, width, height):
    """PNG bytes of 8-bit RGB rows (each a bytes of width * 3)."""
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            _chunk(b"IDAT", zlib.compress(raw, 9)),
            _chunk(b"IEND", b""),
        )
    )


def rgb_rows(buf, width, height, fmt, on=OLED_ON, off=OLED_OFF, swap=False, stride=None):
    """The frame buffer's pixels as lists of (r, g, b) tuples, one list per row."""
    stride = width if stride is None else stride
    buf = bytes(buf)
    rows = []
    if fmt == MONO_VLSB:
        for y in range(height):
            base = (y >> 3) * stride
            bit = 1 << (y & 7)
            rows.append([on if buf[base + x] & bit else off for x in range(width)])
    elif fmt == MONO_HLSB:
        stride = (stride + 7) & ~7
        for y in range(height):
            rows.append(
                [on if buf[(x + y * stride) >> 3] & (0x80 >> (x & 7)) else off for x in range(width)]
            )
    elif fmt == RGB565:
        for y in range(height):
            row = []
            for x in range(width):
                i = (x + y * stride) * 2
                c = (buf[i] << 8 | buf[i + 1]) if swap else (buf[i] | buf[i + 1] << 8)
                r = (c >> 11) & 0x1F
                g = (c >> 5) & 0x3F
                b = c & 0x1F
                row.append(((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)))
            rows.append(row)
    else:
        raise ValueError("formats: MONO_VLSB, MONO_HLSB, RGB565")
    return rows


def scaled(rows, scale=1, grid=False, grid_rgb=(24, 24, 24)):
    """Rows of bytes (RGB), each pixel repeated scale times across and down."""
    out = []
    g = bytes(grid_rgb)
    for row in rows:
        if grid and scale > 2:
            line = b"".join(bytes(p) * (scale - 1) + g for p in row)
            out.extend([line] * (scale - 1))
            out.append(g * (len(row) * scale))
        else:
            line = b"".join(bytes(p) * scale for p in row)
            out.extend([line] * scale)
    return out


def write_framebuf(path, buf, width, height, fmt, scale=1, on=OLED_ON, off=OLED_OFF, swap=False, grid=False, stride=None):
    rows = scaled(rgb_rows(buf, width, height, fmt, on, off, swap, stride), scale, grid)
    data = encode(rows, width * scale, height * scale)
    with open(path, "wb") as f:
        f.write(data)
    return data


def read_rgb(path):
    """(width, height, rows of RGB bytes) of a PNG this module wrote (8-bit RGB, filter 0)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    p = 8
    idat = b""
    width = height = 0
    while p < len(data):
        (n,) = struct.unpack_from(">I", data, p)
        kind = data[p + 4 : p + 8]
        body = data[p + 8 : p + 8 + n]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack_from(">I", data, p + 8 + n)[0]:
            raise ValueError("bad CRC in " + kind.decode())
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack_from(">IIBB", body)
            if (depth, ctype) != (8, 2):
                raise ValueError("only 8-bit RGB")
        elif kind == b"IDAT":
            idat += body
        p += 12 + n
    raw = zlib.decompress(idat)
    line = width * 3 + 1
    rows = []
    for y in range(height):
        if raw[y * line] != 0:
            raise ValueError("only filter 0")
        rows.append(raw[y * line + 1 : (y + 1) * line])
    return width, height, rows

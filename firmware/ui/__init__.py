# What the box shows:
#   texts.py              the words the screens share, Chinese and English (a flow's own words
#                         are in its module, firmware/flows/*.py)
#   fan_names.py          the rules core's fan names, found by index
#   layout.py             a screen's lines onto the display's rows, in pages
#   render.py             a screen model drawn into a frame buffer, with the glyphs of
#   partial.py            only the parts of a screen whose text changed drawn again (the OLED)
#   glyph_viper.py        native glyph drawing and measuring, where the build compiles it
#   glyphs_12.py, glyphs_16.py   the fonts (generated: python tools/glyphs.py)
#   name_bitmaps.py       players' names the server drew (the config's name_bitmaps), drawn
#                         where the name goes: what the fonts cannot
#   displayio_screen.py   the screen on displayio (CircuitPython, the desktop's Blinka)
#   framebuf_py.py        MicroPython's framebuf in Python, for ports without it

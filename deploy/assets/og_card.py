"""Draw the link-preview card of the public pages (``og:image``): 1200 x 630 px, the
app's green, the icon's "3" and the site's name; no words of any language, so one card
serves every reader. Run once when the look changes (Pillow, already a dependency of
the PDFs' stack):

    python deploy/assets/og_card.py scorebook/web/static/web/og-card.png
"""

from __future__ import annotations

import sys

from PIL import Image, ImageDraw, ImageFont

GREEN, WHITE = (11, 93, 30), (255, 255, 255)
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def draw(path: str) -> None:
    card = Image.new("RGB", (1200, 630), GREEN)
    pen = ImageDraw.Draw(card)
    pen.rounded_rectangle((90, 175, 370, 455), radius=52, fill=WHITE)
    pen.text((230, 315), "3", font=ImageFont.truetype(BOLD, 215), fill=GREEN, anchor="mm")
    pen.text((430, 315), "Scorebook", font=ImageFont.truetype(BOLD, 110), fill=WHITE, anchor="lm")
    card.save(path, optimize=True)


if __name__ == "__main__":
    draw(sys.argv[1])

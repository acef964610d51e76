"""QR codes (segno) as inline SVG: no image request, no inline style (CSP-safe)."""

import io

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, title: str = "") -> SafeString:
    """An SVG QR code of ``text`` that scales to its container (viewBox, no fixed size).

    segno writes only path data, the escaped ``title`` and fixed attributes, so the
    markup is safe to embed."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(
        buffer,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        border=2,
        title=title or None,
        svgclass="qrcode",
        lineclass=None,
    )
    return mark_safe(buffer.getvalue().decode())  # noqa: S308 - segno's own escaped output

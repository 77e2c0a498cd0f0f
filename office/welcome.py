"""The launcher's first page (office.launcher): the hall address, its QR code, the director's login.

A file in the data folder that the browser opens from the disk, written before the office
serves: it needs no request and no login, so it may show the generated password of the
first start (the file is private to the user, and the next start writes it without it).
"""

from __future__ import annotations

import segno
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from office.director import DirectorLogin


def page(office_url: str, local_url: str, login: DirectorLogin) -> str:
    """The first page's HTML in the active language; ``login.password`` shown only when just generated."""
    qr = segno.make(office_url + "/", error="m").svg_inline(scale=6)
    return render_to_string(
        "office/welcome.html",
        {
            "office_url": office_url,
            "local_url": local_url,
            "qr": mark_safe(qr),  # segno's own SVG of the address
            "username": login.user.get_username(),
            "password": login.password,
        },
    )

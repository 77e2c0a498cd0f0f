"""The office's QR encoder (printing.documents.qr): the modules segno draws for the same
link with the same mask, for every version, in a fraction of segno's time.

segno writes a whole zero byte after the terminator where the data already ends on a
byte boundary (ISO/IEC 18004 7.4.10 pads to the boundary only, then with 0xEC 0x11); its
readers stop at the terminator either way. The comparison gives segno the standard's
padding, so every other module must agree.
"""

from __future__ import annotations

import random
import string

import pytest
import segno
import segno.encoder

from printing.documents import qr


@pytest.fixture
def standard_segno(monkeypatch):
    def write_padding_bits(buff, version, length):
        if length % 8:
            buff.extend([0] * (8 - length % 8))

    monkeypatch.setattr(segno.encoder, "write_padding_bits", write_padding_bits)


def _segno(text: str) -> tuple[bytes, ...]:
    return tuple(bytes(row) for row in segno.make(text, error="m", mask=qr.MASK, micro=False).matrix)


def test_every_version_has_segnos_modules(standard_segno):
    rng = random.Random(5)
    versions = set()
    for length in [*range(1, 200), *range(200, 2320, 23)]:
        text = "http://h/" + "".join(rng.choice(string.ascii_letters + string.digits + "/-_") for _ in range(length))
        code = segno.make(text, error="m", mask=qr.MASK, micro=False)
        versions.add(code.version)
        assert qr.matrix(text) == _segno(text), (length, code.version, code.error)
    assert versions == set(range(1, 41))


def test_a_link_that_fits_a_higher_level_gets_it(standard_segno):
    # Version 1 holds 14 bytes at level M, 11 at Q and 7 at H: segno raises the level so too.
    assert [qr._version_and_level(n) for n in (7, 8, 11, 12, 14, 15)] == [
        (1, "H"),
        (1, "Q"),
        (1, "Q"),
        (1, "M"),
        (1, "M"),
        (2, "Q"),
    ]
    for text in ("http://", "http://a/b", "http://a/bcdef"):
        assert qr.matrix(text) == _segno(text)


def test_the_office_link_is_a_version_4_code_at_level_m():
    link = "http://192.168.1.20:8000/me/Y9pmmiuxfB7G63Zg5m7NOg/"
    rows = qr.matrix(link)
    assert len(rows) == 33 and all(len(row) == 33 for row in rows)
    assert set(b"".join(rows)) == {0, 1}


def test_a_text_outside_ascii_is_segnos_with_the_same_mask():
    text = "http://skat.example/Müller"
    assert qr.matrix(text) == _segno(text)


def test_a_text_too_long_for_any_version_is_refused_as_segno_refuses_it():
    with pytest.raises(segno.DataOverflowError):
        qr.matrix("x" * 3000)


@pytest.mark.parametrize("text", ["ä", "http://ä", "Müller", "€"])
def test_a_short_text_outside_ascii_is_a_full_qr_code_a_phone_reads(text):
    # segno makes a Micro QR code of a text this short unless told not to; phones' cameras do not read those.
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    rows = qr.matrix(text)
    assert (len(rows) - 17) % 4 == 0  # a QR code's size (4 x version + 17); a Micro QR code's is 2 x version + 9
    size = len(rows) + 8
    image = Image.new("L", (size, size), 255)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.putpixel((x + 4, y + 4), 0)
    found = zxingcpp.read_barcodes(image.resize((size * 4, size * 4), Image.NEAREST))
    assert [(code.text, code.format) for code in found] == [(text, zxingcpp.BarcodeFormat.QRCode)]

"""QR codes for links, fast enough for a card per player (ISO/IEC 18004).

A start card run prints 3,000 codes. segno, the general encoder, took about 5 ms a code,
four fifths of it choosing the mask: it tries all eight and scores each for patterns a
reader might trip over. The standard lets the encoder use any mask (the format
information names it, every reader reads it), so the office uses one fixed mask, and
this encoder, made for the one case it prints (a link in byte mode), does the rest with
what is the same for every code of a version worked out once: the function patterns,
the format and version information, the order the data modules are filled in and the
mask over them. What is left per code is the data, its Reed-Solomon codewords and about
a thousand modules set: a fraction of a millisecond.

Like segno it picks the smallest version that holds the link at level M and raises the
level where the link still fits that version (a smudge on a card costs nothing then).
A text outside ASCII (never one of the office's links) goes to segno, with the same mask.
The tests hold the modules equal to segno's for every version.
"""

from __future__ import annotations

import functools

#: The data mask of every code: (row + column) even is inverted.
MASK = 0

#: Error correction levels, lowest first, with their format bits (ISO/IEC 18004 table C.1).
LEVELS = ("L", "M", "Q", "H")
FORMAT_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(number) for number in text.split())


#: Per level and version 1 to 40: the error correction codewords of a block and the
#: number of blocks (ISO/IEC 18004 table 9).
ECC_PER_BLOCK = {
    "L": _numbers(
        "7 10 15 20 26 18 20 24 30 18 20 24 26 30 22 24 28 30 28 28 "
        "28 28 30 30 26 28 30 30 30 30 30 30 30 30 30 30 30 30 30 30"
    ),
    "M": _numbers(
        "10 16 26 18 24 16 18 22 22 26 30 22 22 24 24 28 28 26 26 26 "
        "26 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28"
    ),
    "Q": _numbers(
        "13 22 18 26 18 24 18 22 20 24 28 26 24 20 30 24 28 28 26 30 "
        "28 30 30 30 30 28 30 30 30 30 30 30 30 30 30 30 30 30 30 30"
    ),
    "H": _numbers(
        "17 28 22 16 22 28 26 26 24 28 24 28 22 24 24 30 28 28 26 28 "
        "30 24 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30"
    ),
}
BLOCKS = {
    "L": _numbers("1 1 1 1 1 2 2 2 2 4 4 4 4 4 6 6 6 6 7 8 8 9 9 10 12 12 12 13 14 15 16 17 18 19 19 20 21 22 24 25"),
    "M": _numbers(
        "1 1 1 2 2 4 4 4 5 5 5 8 9 9 10 10 11 13 14 16 17 17 18 20 21 23 25 26 28 29 31 33 35 37 38 40 43 45 47 49"
    ),
    "Q": _numbers(
        "1 1 2 2 4 4 6 6 8 8 8 10 12 16 12 17 16 18 21 20 23 23 25 27 29 34 34 35 38 40 43 45 48 51 53 56 59 62 65 68"
    ),
    "H": _numbers(
        "1 1 2 4 4 4 5 6 8 8 11 11 16 16 18 16 19 21 25 25 25 34 30 32 35 37 40 42 45 48 51 54 57 60 63 66 70 74 77 81"
    ),
}


def matrix(text: str) -> tuple[bytes, ...]:
    """The modules of ``text``'s QR code, row by row, 1 dark and 0 light, without the quiet zone."""
    try:
        data = text.encode("ascii")
    except UnicodeEncodeError:
        return _segno_matrix(text)
    found = _version_and_level(len(data))
    if found is None:
        return _segno_matrix(text)
    version, level = found
    size = 4 * version + 17
    codewords = _codewords(data, version, level)
    # Each data module takes its bit (a remainder bit and a function module a 0), in
    # C-level joins and lookups rather than a loop per module; a 1 bit flips the module
    # the template holds (the masked light module there).
    bits = b"".join(map(BYTE_BITS.__getitem__, codewords))
    bits += bytes(len(_positions(version)) - len(bits) + 1)
    layer = bytes(map(bits.__getitem__, _bit_of_module(version)))
    modules = (int.from_bytes(_template(version, level), "big") ^ int.from_bytes(layer, "big")).to_bytes(
        size * size, "big"
    )
    return tuple(modules[row * size : (row + 1) * size] for row in range(size))


#: Each byte as its eight bits, one byte each, most significant first.
BYTE_BITS = tuple(bytes((value >> (7 - i)) & 1 for i in range(8)) for value in range(256))


def _segno_matrix(text: str) -> tuple[bytes, ...]:
    import segno

    # micro=False: a short text would otherwise become a Micro QR code, which a phone's camera does not read.
    return tuple(bytes(row) for row in segno.make(text, error="m", mask=MASK, micro=False).matrix)


# --- sizes ------------------------------------------------------------------------------------------


def _data_codewords(version: int, level: str) -> int:
    return _raw_modules(version) // 8 - ECC_PER_BLOCK[level][version - 1] * BLOCKS[level][version - 1]


def _raw_modules(version: int) -> int:
    """The modules left for data and error correction codewords (and remainder bits)."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        aligns = version // 7 + 2
        result -= (25 * aligns - 10) * aligns - 55
        if version >= 7:
            result -= 36
    return result


def _bits_needed(length: int, version: int) -> int:
    return 4 + (8 if version < 10 else 16) + 8 * length


@functools.lru_cache(maxsize=512)
def _version_and_level(length: int) -> tuple[int, str] | None:
    """The smallest version holding ``length`` bytes at level M, at the highest level that fits it."""
    for version in range(1, 41):
        if _bits_needed(length, version) <= _data_codewords(version, "M") * 8:
            level = "M"
            for higher in ("Q", "H"):
                if _bits_needed(length, version) > _data_codewords(version, higher) * 8:
                    break
                level = higher
            return version, level
    return None


# --- data and error correction ----------------------------------------------------------------------


def _codewords(data: bytes, version: int, level: str) -> bytes:
    """The final message: byte mode data, padded, split in blocks, interleaved with their ECC."""
    capacity = _data_codewords(version, level)
    count_bits = 8 if version < 10 else 16
    header = (0b0100 << count_bits) | len(data)
    value = (header << 8 * len(data)) | int.from_bytes(data, "big")
    length = 4 + count_bits + 8 * len(data)
    terminator = min(4, capacity * 8 - length)
    value <<= terminator
    length += terminator
    value <<= -length % 8
    length += -length % 8
    message = value.to_bytes(length // 8, "big") + (b"\xec\x11" * capacity)[: capacity - length // 8]
    blocks_count = BLOCKS[level][version - 1]
    ecc = ECC_PER_BLOCK[level][version - 1]
    total = _raw_modules(version) // 8
    short_length = total // blocks_count - ecc  # the data of a short block; a long one has one more
    shorts = blocks_count - total % blocks_count
    blocks, start = [], 0
    for b in range(blocks_count):
        end = start + short_length + (b >= shorts)
        blocks.append(message[start:end])
        start = end
    out = bytearray()
    for i in range(short_length + 1):
        out.extend(block[i] for block in blocks if i < len(block))
    remainders = [_remainder(block, ecc) for block in blocks]
    for i in range(ecc):
        out.extend(r[i] for r in remainders)
    return bytes(out)


def _gf_tables() -> tuple[list[int], list[int]]:
    exp, log = [0] * 512, [0] * 256
    x = 1
    for i in range(255):
        exp[i] = x
        log[x] = i
        x <<= 1
        if x & 0x100:
            x ^= 0x11D
    for i in range(255, 512):
        exp[i] = exp[i - 255]
    return exp, log


EXP, LOG = _gf_tables()


@functools.cache
def _products(degree: int) -> tuple[int, ...]:
    """For each byte, its product with the generator polynomial of ``degree`` (highest
    term dropped), its coefficients as the bytes of one integer."""
    generator = [1]
    for i in range(degree):
        # generator * (x - alpha^i)
        nxt = [0] * (len(generator) + 1)
        for j, coefficient in enumerate(generator):
            nxt[j] ^= coefficient
            if coefficient:
                nxt[j + 1] ^= EXP[LOG[coefficient] + i]
        generator = nxt
    divisor = generator[1:]
    return tuple(
        int.from_bytes(bytes(EXP[LOG[factor] + LOG[c]] if factor and c else 0 for c in divisor), "big")
        for factor in range(256)
    )


def _remainder(block: bytes, degree: int) -> bytes:
    """The Reed-Solomon error correction codewords of ``block``: the polynomial division
    a byte at a time, the remainder's coefficients the bytes of one integer."""
    products = _products(degree)
    shift = 8 * (degree - 1)
    mask = (1 << 8 * degree) - 1
    remainder = 0
    for byte in block:
        remainder = ((remainder << 8) & mask) ^ products[byte ^ (remainder >> shift)]
    return remainder.to_bytes(degree, "big")


# --- the matrix -------------------------------------------------------------------------------------


def _alignment_centres(version: int) -> list[int]:
    if version == 1:
        return []
    count = version // 7 + 2
    step = (version * 8 + count * 3 + 5) // (count * 4 - 4) * 2
    size = 4 * version + 17
    return [6, *sorted(size - 7 - i * step for i in range(count - 1))]


@functools.cache
def _function_modules(version: int) -> tuple[bytearray, bytearray]:
    """(dark, reserved): the function patterns' modules, and every module that is not data."""
    size = 4 * version + 17
    dark, reserved = bytearray(size * size), bytearray(size * size)

    def put(row: int, col: int, value: bool) -> None:
        dark[row * size + col] = value
        reserved[row * size + col] = 1

    for i in range(size):
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for row, col in ((3, 3), (3, size - 4), (size - 4, 3)):
        for dr in range(-4, 5):
            for dc in range(-4, 5):
                if 0 <= row + dr < size and 0 <= col + dc < size:
                    put(row + dr, col + dc, max(abs(dr), abs(dc)) not in (2, 4))
    centres = _alignment_centres(version)
    last = len(centres) - 1
    for i, row in enumerate(centres):
        for j, col in enumerate(centres):
            if (i, j) in ((0, 0), (0, last), (last, 0)):
                continue  # where the finder patterns are
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    put(row + dr, col + dc, max(abs(dr), abs(dc)) != 1)
    # The format information's places (written per level), the dark module, the version information.
    for i in range(9):
        reserved[8 * size + i] = reserved[i * size + 8] = 1
    for i in range(8):
        reserved[8 * size + size - 1 - i] = reserved[(size - 1 - i) * size + 8] = 1
    put(size - 8, 8, True)
    if version >= 7:
        bits = _bch(version, 12, 0x1F25)
        for i in range(18):
            a, b = size - 11 + i % 3, i // 3
            put(b, a, bits >> i & 1)
            put(a, b, bits >> i & 1)
    return dark, reserved


def _bch(data: int, degree: int, generator: int) -> int:
    remainder = data
    for _ in range(degree):
        remainder = (remainder << 1) ^ ((remainder >> (degree - 1)) * generator)
    return data << degree | remainder


@functools.cache
def _positions(version: int) -> tuple[int, ...]:
    """The data modules in the order the codewords fill them: two columns at a time from
    the right, up and down in turn, the vertical timing pattern's column skipped."""
    size = 4 * version + 17
    _dark, reserved = _function_modules(version)
    out = []
    for right in range(size - 1, 0, -2):
        if right <= 6:
            right -= 1
        upward = (right + 1) & 2 == 0
        for vertical in range(size):
            row = size - 1 - vertical if upward else vertical
            for col in (right, right - 1):
                if not reserved[row * size + col]:
                    out.append(row * size + col)
    return tuple(out)


@functools.cache
def _bit_of_module(version: int) -> tuple[int, ...]:
    """For each module, row by row, the index of the data bit it shows; a function
    module the index one past the last data module (a 0 bit)."""
    size = 4 * version + 17
    positions = _positions(version)
    out = [len(positions)] * (size * size)
    for i, position in enumerate(positions):
        out[position] = i
    return tuple(out)


@functools.cache
def _template(version: int, level: str) -> bytes:
    """Everything of a code but its data: function patterns, format information, and the
    mask over the data modules (what a 0 bit, or a remainder bit, shows)."""
    size = 4 * version + 17
    dark, reserved = _function_modules(version)
    modules = bytearray(dark)
    for position in range(size * size):
        if not reserved[position]:
            row, col = divmod(position, size)
            modules[position] = (row + col) % 2 == 0  # mask 0
    bits = _bch(FORMAT_BITS[level] << 3 | MASK, 10, 0x537) ^ 0x5412
    places = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i) for i in range(9, 15)]
    for i, (row, col) in enumerate(places):
        modules[row * size + col] = bits >> i & 1
    for i in range(8):
        modules[8 * size + size - 1 - i] = bits >> i & 1
    for i in range(8, 15):
        modules[(size - 15 + i) * size + 8] = bits >> i & 1
    return bytes(modules)

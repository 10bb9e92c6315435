"""PNG bytes of an H×W×3 uint8 array with the standard library (zlib), for saving frames without Pillow."""

from __future__ import annotations

import os
import struct
import zlib

import numpy as np

from apb.engine.errors import ApbError


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(frame: np.ndarray) -> bytes:
    """An RGB PNG of `frame` (H×W×3 uint8)."""
    if not (isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8):
        raise ApbError(f"a frame must be an H×W×3 uint8 array, not {getattr(frame, 'shape', type(frame))}")
    h, w = frame.shape[:2]
    rows = np.concatenate([np.zeros((h, 1), dtype=np.uint8), frame.reshape(h, w * 3)], axis=1)  # filter 0
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
            + _chunk(b"IEND", b""))


def write_png(path: str | os.PathLike, frame: np.ndarray) -> None:
    with open(path, "wb") as handle:
        handle.write(png_bytes(frame))
